import type { Executor } from '../database.js';
import type { ApiKeyRow } from '../api-keys/api-keys.table.js';
import type { EventRow } from '../events/events.table.js';
import type { SubscriptionRow } from '../subscriptions/subscriptions.table.js';

/**
 * The queries of the gateways' sync: what is deployed (the latest deployment and lifecycle event of
 * each API) and the access rights (subscriptions and keys) that changed since a moment.
 */

/** For each API, its latest PUBLISH_API/UNPUBLISH_API event and its latest START_API/STOP_API event. */
export async function findLatestLifecycleEvents(db: Executor): Promise<EventRow[]> {
  const latest = (types: string[]) =>
    db
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('type', 'in', types)
      .where('api_id', 'is not', null)
      .groupBy('api_id');
  return db
    .selectFrom('events')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('seq', 'in', latest(['PUBLISH_API', 'UNPUBLISH_API'])),
        eb('seq', 'in', latest(['START_API', 'STOP_API'])),
      ]),
    )
    .orderBy('seq')
    .execute();
}

/** The highest event sequence number (0 when there is none). */
export async function findLastEventSeq(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

export async function findApiKeysOfApis(db: Executor, apiIds: readonly string[]): Promise<ApiKeyRow[]> {
  if (apiIds.length === 0) return [];
  return db.selectFrom('api_keys').selectAll().where('api_id', 'in', apiIds).execute();
}

/** Keys changed at or after the instant (the caller keeps a small overlap for clock skew). */
export async function findApiKeysUpdatedSince(db: Executor, since: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('updated_at', '>=', since).execute();
}

export async function findSubscriptionsOfApis(
  db: Executor,
  apiIds: readonly string[],
): Promise<SubscriptionRow[]> {
  if (apiIds.length === 0) return [];
  return db.selectFrom('subscriptions').selectAll().where('api_id', 'in', apiIds).execute();
}

export async function findSubscriptionsUpdatedSince(db: Executor, since: number): Promise<SubscriptionRow[]> {
  return db.selectFrom('subscriptions').selectAll().where('updated_at', '>=', since).execute();
}
