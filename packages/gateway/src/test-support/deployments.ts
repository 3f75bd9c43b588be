import { randomUUID } from 'node:crypto';
import type { DeployedApi, DeployedPlan } from '@portico/model';
import { ApiDefinition } from '@portico/model';
import type { Executor, EventBus } from '@portico/storage';
import { insertApplication, insertEvent, insertSubscription } from '@portico/storage';
import type { z } from 'zod';

type DefinitionInput = z.input<typeof ApiDefinition>;

/** Builds a deployed API around one endpoint group; `definition` overrides parts of the definition. */
export function deployedApi(
  contextPath: string,
  targets: string[],
  options: {
    plans?: Partial<DeployedPlan>[];
    definition?: Partial<DefinitionInput>;
    state?: 'STARTED' | 'STOPPED';
  } = {},
): DeployedApi {
  const id = randomUUID();
  const definition = ApiDefinition.parse({
    id,
    name: `api ${contextPath}`,
    version: '1',
    proxy: {
      context_path: contextPath,
      groups: [{ name: 'default', endpoints: targets.map((target, i) => ({ name: `e${i}`, target })) }],
    },
    ...options.definition,
  } satisfies DefinitionInput);
  return {
    id,
    name: definition.name,
    version: '1',
    description: null,
    visibility: 'PUBLIC',
    state: options.state ?? 'STARTED',
    deployed_at: Date.now(),
    definition,
    plans: (options.plans ?? [{ security: 'KEY_LESS' }]).map((p, i) => ({
      id: randomUUID(),
      name: `plan ${i}`,
      security: 'KEY_LESS',
      securityDefinition: null,
      status: 'PUBLISHED',
      order: i,
      paths: {},
      tags: [],
      ...p,
    })),
  };
}

/** Writes a lifecycle event as the management API does, and announces it on the bus. */
export async function publishEvent(
  db: Executor,
  bus: EventBus | undefined,
  type: 'PUBLISH_API' | 'UNPUBLISH_API' | 'START_API' | 'STOP_API',
  api: DeployedApi,
): Promise<void> {
  const now = Date.now();
  await insertEvent(db, {
    id: randomUUID(),
    type,
    payload: type === 'PUBLISH_API' ? JSON.stringify(api) : null,
    properties: JSON.stringify({ api_id: api.id }),
    api_id: api.id,
    user_id: null,
    created_at: now,
    updated_at: now,
  });
  bus?.publish({ kind: 'event', id: type, apiId: api.id });
}

/** An application with an accepted subscription to a plan (and its API key when given). */
export async function subscribe(
  db: Executor,
  api: DeployedApi,
  planId: string,
  options: { key?: string; clientId?: string; status?: string } = {},
): Promise<{ applicationId: string; subscriptionId: string }> {
  const now = Date.now();
  // One application per client id (client ids are unique among active applications).
  const existing = options.clientId
    ? await db
        .selectFrom('applications')
        .select('id')
        .where('client_id', '=', options.clientId)
        .executeTakeFirst()
    : undefined;
  const applicationId = existing?.id ?? randomUUID();
  const subscriptionId = randomUUID();
  if (!existing) {
    await insertApplication(db, {
      id: applicationId,
      name: `app ${applicationId.slice(0, 8)}`,
      description: null,
      type: 'SIMPLE',
      status: 'ACTIVE',
      client_id: options.clientId ?? null,
      groups: '[]',
      settings: '{}',
      picture: null,
      created_at: now,
      updated_at: now,
    });
  }
  await insertSubscription(db, {
    id: subscriptionId,
    api_id: api.id,
    plan_id: planId,
    application_id: applicationId,
    status: options.status ?? 'ACCEPTED',
    request: null,
    reason: null,
    client_id: options.clientId ?? null,
    subscribed_by: null,
    processed_by: null,
    created_at: now,
    updated_at: now,
    processed_at: now,
    starting_at: now - 1000,
    ending_at: null,
    paused_at: null,
    closed_at: null,
  });
  if (options.key) {
    await db
      .insertInto('api_keys')
      .values({
        key: options.key,
        subscription_id: subscriptionId,
        application_id: applicationId,
        plan_id: planId,
        api_id: api.id,
        revoked: 0,
        paused: 0,
        revoked_at: null,
        expire_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return { applicationId, subscriptionId };
}
