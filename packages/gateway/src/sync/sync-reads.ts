import type {
  ApiKeyRow,
  Database,
  EventRow,
  Executor,
  GatewaySubscriptionRow,
  SyncCursor,
} from '@portico/storage';
import {
  findApiKeysChangedSince,
  findApiKeysOfApis,
  findEventsBySeq,
  findLastEventSeq,
  findLatestLifecycleEvents,
  findLifecycleRefsSince,
  findLifecycleSeqs,
  findSubscriptionsChangedSince,
  findSubscriptionsOfApis,
  findSyncHorizon,
  inSyncRead,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { Deployments } from './deployments.js';
import { applyEvent, servedIds } from './deployments.js';

/**
 * SQLite: keys and subscriptions are read again from this far before the previous read. Their
 * `updated_at` is the writer's clock before its transaction, which SQLite may keep waiting (busy
 * timeout) before it commits; the periodic reconciliation repairs anything later still.
 */
export const ACCESS_WINDOW_MS = 30_000;

/** What one read found: the deployments as they are now and the access rights to apply. */
export interface SyncPlan {
  deployments: Deployments;
  /** APIs whose deployment or state changed. */
  changed: Set<string>;
  keys: ApiKeyRow[];
  subscriptions: GatewaySubscriptionRow[];
  /** Full load or reconciliation: the keys and subscriptions above are all of those served. */
  replaceAccess: boolean;
  cursor: SyncCursor;
}

interface ReadContext {
  tags: readonly string[];
  log: { error(msg: string): void };
  now(): number;
}

/** Everything the gateway serves, in one consistent read. */
export function readAll(db: Kysely<Database>, ctx: ReadContext): Promise<SyncPlan> {
  const since = ctx.now();
  return inSyncRead(db, async (trx) => {
    const horizon = await findSyncHorizon(trx);
    const events = await findLatestLifecycleEvents(trx);
    const seq = await findLastEventSeq(trx);
    const deployments: Deployments = new Map();
    for (const e of events) applyEvent(deployments, e, ctx.log);
    const served = [...servedIds(deployments, ctx.tags)];
    return {
      deployments,
      changed: new Set(deployments.keys()),
      keys: await findApiKeysOfApis(trx, served),
      subscriptions: await findSubscriptionsOfApis(trx, served),
      replaceAccess: true,
      cursor: { seq, horizon, since },
    };
  });
}

/** Applies to a copy of `current` the lifecycle events committed since the cursor; returns the changed APIs. */
async function applyChangesSince(
  trx: Executor,
  current: Deployments,
  cursor: SyncCursor,
  ctx: ReadContext,
): Promise<{ deployments: Deployments; changed: Set<string>; seq: number }> {
  const refs = await findLifecycleRefsSince(trx, cursor);
  const deployments: Deployments = new Map(current);
  // Only the newest PUBLISH_API of an API that is newer than what is applied needs its payload.
  const publish = new Map<string, number>();
  for (const r of refs)
    if (r.type === 'PUBLISH_API' && r.seq > (deployments.get(r.api_id)?.deploySeq ?? 0))
      publish.set(r.api_id, Math.max(r.seq, publish.get(r.api_id) ?? 0));
  const rows: (EventRow | (typeof refs)[number])[] = [
    ...(await findEventsBySeq(trx, [...publish.values()])),
    ...refs.filter((r) => r.type !== 'PUBLISH_API'),
  ];
  const changed = new Set<string>();
  for (const e of rows) if (applyEvent(deployments, e, ctx.log)) changed.add(e.api_id!);
  const seq = refs.reduce((max, r) => Math.max(max, r.seq), cursor.seq);
  return { deployments, changed, seq };
}

/**
 * What changed since the cursor, in one consistent read: lifecycle events (whatever the order of
 * their commits), keys and subscriptions written meanwhile, and all of those of newly served APIs.
 */
export function readChanges(
  db: Kysely<Database>,
  current: Deployments,
  cursor: SyncCursor,
  ctx: ReadContext,
): Promise<SyncPlan> {
  const since = ctx.now();
  return inSyncRead(db, async (trx) => {
    const horizon = await findSyncHorizon(trx);
    const { deployments, changed, seq } = await applyChangesSince(trx, current, cursor, ctx);
    const before = servedIds(current, ctx.tags);
    const newlyServed = [...servedIds(deployments, ctx.tags)].filter((id) => !before.has(id));
    return {
      deployments,
      changed,
      keys: [
        ...(await findApiKeysChangedSince(trx, cursor, ACCESS_WINDOW_MS)),
        ...(await findApiKeysOfApis(trx, newlyServed)),
      ],
      subscriptions: [
        ...(await findSubscriptionsChangedSince(trx, cursor, ACCESS_WINDOW_MS)),
        ...(await findSubscriptionsOfApis(trx, newlyServed)),
      ],
      replaceAccess: false,
      cursor: { seq, horizon, since },
    };
  });
}

/** What a reconciliation tells apart from the changes: drift, and the access rights changed meanwhile. */
export interface Reconciliation {
  /** APIs whose deployment or state differed from the database after the changes were applied. */
  driftApis: Set<string>;
  recentKeys: ApiKeyRow[];
  recentSubscriptions: GatewaySubscriptionRow[];
}

/**
 * The changes since the cursor, then, in the same read, the sequences of every API's latest events
 * and every key and subscription of the served APIs: what differs after the changes is drift, which
 * the plan repairs (`drift` counts it).
 */
export function readChangesAndReconcile(
  db: Kysely<Database>,
  current: Deployments,
  cursor: SyncCursor,
  ctx: ReadContext,
): Promise<SyncPlan & Reconciliation> {
  const since = ctx.now();
  return inSyncRead(db, async (trx) => {
    const horizon = await findSyncHorizon(trx);
    const { deployments, changed, seq } = await applyChangesSince(trx, current, cursor, ctx);
    const driftApis = new Set<string>();
    const wanted: number[] = [];
    const inDatabase = new Set<string>();
    for (const row of await findLifecycleSeqs(trx)) {
      inDatabase.add(row.api_id);
      const mine = deployments.get(row.api_id);
      if (mine && mine.deploySeq === (row.deploy_seq ?? 0) && mine.stateSeq === row.state_seq) continue;
      driftApis.add(row.api_id);
      wanted.push(row.state_seq);
      if (row.deploy_seq !== null && row.deploy_seq !== row.state_seq) wanted.push(row.deploy_seq);
    }
    for (const id of deployments.keys()) if (!inDatabase.has(id)) driftApis.add(id);
    for (const id of driftApis) deployments.delete(id);
    for (const e of await findEventsBySeq(trx, wanted)) applyEvent(deployments, e, ctx.log);
    const served = [...servedIds(deployments, ctx.tags)];
    const recentKeys = await findApiKeysChangedSince(trx, cursor, ACCESS_WINDOW_MS);
    const recentSubscriptions = await findSubscriptionsChangedSince(trx, cursor, ACCESS_WINDOW_MS);
    return {
      recentKeys,
      recentSubscriptions,
      deployments,
      changed: new Set([...changed, ...driftApis]),
      keys: await findApiKeysOfApis(trx, served),
      subscriptions: await findSubscriptionsOfApis(trx, served),
      replaceAccess: true,
      cursor: { seq, horizon, since },
      driftApis,
    };
  });
}
