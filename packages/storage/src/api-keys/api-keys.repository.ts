import type { Executor } from '../database.js';
import type { ApiKeyRow, ApiKeyRowUpdate, NewApiKeyRow } from './api-keys.table.js';

export async function insertApiKey(db: Executor, row: NewApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findApiKey(db: Executor, key: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key', '=', key).executeTakeFirst();
}

/** The keys of a subscription, newest first. */
export async function findApiKeysOfSubscription(db: Executor, subscriptionId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at', 'desc')
    .orderBy('key')
    .execute();
}

/** Changes some columns of a key; answers the number of rows changed. */
export async function updateApiKey(db: Executor, key: string, changes: ApiKeyRowUpdate): Promise<number> {
  const result = await db.updateTable('api_keys').set(changes).where('key', '=', key).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Changes the keys of a subscription: those not revoked (pausing, resuming, revoking them all), or all
 * of them (moving them to another plan); answers how many changed.
 */
export async function updateApiKeysOfSubscription(
  db: Executor,
  subscriptionId: string,
  changes: ApiKeyRowUpdate,
  which: 'live' | 'all' = 'live',
): Promise<number> {
  let q = db.updateTable('api_keys').set(changes).where('subscription_id', '=', subscriptionId);
  if (which === 'live') q = q.where('revoked', '=', 0);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Keys not revoked that expire at or before the instant and whose owner was not yet told. */
export async function findApiKeysExpiringUnnotified(db: Executor, before: number): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('revoked', '=', 0)
    .where('expire_at', 'is not', null)
    .where('expire_at', '<=', before)
    .where('expiry_notified_at', 'is', null)
    .orderBy('expire_at')
    .execute();
}
