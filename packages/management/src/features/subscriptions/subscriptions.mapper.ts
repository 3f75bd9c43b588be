import { PRIMARY_OWNER } from '@portico/model';
import type { Page } from '@portico/model';
import type {
  ApiKeyRow,
  ApiRow,
  ApplicationRow,
  Executor,
  PlanRow,
  SubscriptionRow,
  UserRow,
} from '@portico/storage';
import {
  findApisByIds,
  findApplicationsByIds,
  findPlansByIds,
  findUserMembershipsWithRole,
  findUsersByIds,
} from '@portico/storage';
import { displayName } from '../users/users.mapper.js';

/** The APIs, plans, applications and people a list of subscriptions mentions. */
export interface SubscriptionRefs {
  apis: Map<string, ApiRow>;
  plans: Map<string, PlanRow>;
  applications: Map<string, ApplicationRow>;
  users: Map<string, UserRow>;
  /** Primary owner of each application. */
  owners: Map<string, UserRow>;
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];

export async function loadSubscriptionRefs(db: Executor, rows: SubscriptionRow[]): Promise<SubscriptionRefs> {
  const applicationIds = unique(rows.map((r) => r.application_id));
  const [apis, plans, applications, ownerships] = await Promise.all([
    findApisByIds(db, unique(rows.map((r) => r.api_id))),
    findPlansByIds(db, unique(rows.map((r) => r.plan_id))),
    findApplicationsByIds(db, applicationIds),
    findUserMembershipsWithRole(db, 'APPLICATION', applicationIds, PRIMARY_OWNER),
  ]);
  const users = byId(
    await findUsersByIds(
      db,
      unique([
        ...rows.flatMap((r) => [r.subscribed_by, r.processed_by]),
        ...ownerships.map((m) => m.member_id),
      ]),
    ),
  );
  const owners = new Map<string, UserRow>();
  for (const m of ownerships) {
    const user = users.get(m.member_id);
    if (user) owners.set(m.reference_id, user);
  }
  return { apis: byId(apis), plans: byId(plans), applications: byId(applications), users, owners };
}

const person = (user: UserRow | undefined) =>
  user ? { id: user.id, displayName: displayName(user), email: user.email } : null;

/** A subscription in a list: references by id, named in the list's metadata. */
export function toSubscriptionItem(row: SubscriptionRow) {
  return {
    id: row.id,
    api: row.api_id,
    plan: row.plan_id,
    application: row.application_id,
    status: row.status,
    request: row.request,
    reason: row.reason,
    client_id: row.client_id,
    subscribed_by: row.subscribed_by,
    processed_by: row.processed_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    processed_at: row.processed_at,
    starting_at: row.starting_at,
    ending_at: row.ending_at,
    paused_at: row.paused_at,
    closed_at: row.closed_at,
  };
}

/** The names of what a list of subscriptions mentions: `metadata[id].name`. */
export function subscriptionMetadata(refs: SubscriptionRefs): Page<unknown>['metadata'] {
  const metadata: Page<unknown>['metadata'] = {};
  for (const a of refs.apis.values()) metadata[a.id] = { name: a.name, version: a.version };
  for (const p of refs.plans.values()) metadata[p.id] = { name: p.name, security: p.security };
  for (const a of refs.applications.values()) {
    const owner = refs.owners.get(a.id);
    metadata[a.id] = { name: a.name, type: a.type, owner: owner ? displayName(owner) : null };
  }
  for (const u of refs.users.values()) metadata[u.id] = { name: displayName(u) };
  return metadata;
}

/** One subscription with everything its detail screen shows (console-apis.md section 2.7). */
export function toSubscriptionJson(row: SubscriptionRow, refs: SubscriptionRefs) {
  const api = refs.apis.get(row.api_id);
  const plan = refs.plans.get(row.plan_id);
  const application = refs.applications.get(row.application_id);
  const subscribedBy = row.subscribed_by ? refs.users.get(row.subscribed_by) : undefined;
  const processedBy = row.processed_by ? refs.users.get(row.processed_by) : undefined;
  return {
    ...toSubscriptionItem(row),
    api: { id: row.api_id, name: api?.name ?? null, version: api?.version ?? null },
    plan: {
      id: row.plan_id,
      name: plan?.name ?? null,
      security: plan?.security ?? null,
      validation: plan?.validation ?? null,
    },
    application: {
      id: row.application_id,
      name: application?.name ?? null,
      type: application?.type ?? null,
      description: application?.description ?? null,
      client_id: application?.client_id ?? null,
      owner: person(refs.owners.get(row.application_id)),
    },
    subscribed_by: subscribedBy ? { id: subscribedBy.id, displayName: displayName(subscribedBy) } : null,
    processed_by: processedBy ? { id: processedBy.id, displayName: displayName(processedBy) } : null,
  };
}
export type SubscriptionJson = ReturnType<typeof toSubscriptionJson>;

/** An API key on the wire (console-apis.md section 3). */
export function toApiKeyJson(row: ApiKeyRow, now: number) {
  return {
    key: row.key,
    api: row.api_id,
    application: row.application_id,
    plan: row.plan_id,
    subscription: row.subscription_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    expire_at: row.expire_at,
    expired: row.expire_at !== null && row.expire_at <= now,
    revoked: row.revoked === 1,
    revoked_at: row.revoked_at,
    paused: row.paused === 1,
  };
}
export type ApiKeyJson = ReturnType<typeof toApiKeyJson>;

/** What an audit entry keeps of a subscription. */
export const auditedSubscription = (row: SubscriptionRow) => toSubscriptionItem(row);
