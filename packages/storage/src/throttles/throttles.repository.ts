import { sql } from 'kysely';
import type { Executor } from '../database.js';

/**
 * The counter of `key`, unless it is forgotten: no failure for `forgetAfterMs` and no wait left. A
 * forgotten counter starts again from zero at the next failure.
 */
export async function findThrottle(
  db: Executor,
  scope: string,
  key: string,
  now: number,
  forgetAfterMs: number,
): Promise<{ failures: number; blockedUntil: number } | undefined> {
  const row = await db
    .selectFrom('throttle_counters')
    .select(['failures', 'last_failure_at', 'blocked_until'])
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row || (now - row.last_failure_at > forgetAfterMs && now > row.blocked_until)) return undefined;
  return { failures: row.failures, blockedUntil: row.blocked_until };
}

/**
 * Counts one failure of `key` in one atomic statement (two nodes failing at once both count) and
 * answers the count; a forgotten counter starts again at 1.
 */
export async function countThrottleFailure(
  db: Executor,
  scope: string,
  key: string,
  now: number,
  forgetAfterMs: number,
): Promise<number> {
  const row = await db
    .insertInto('throttle_counters')
    .values({ scope, key, failures: 1, last_failure_at: now, blocked_until: 0 })
    .onConflict((oc) =>
      oc.columns(['scope', 'key']).doUpdateSet({
        failures: sql<number>`case when throttle_counters.last_failure_at < ${now - forgetAfterMs}
          and throttle_counters.blocked_until < ${now} then 1 else throttle_counters.failures + 1 end`,
        last_failure_at: now,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

/** `key` must wait until `until` (never shortens a longer wait another node set). */
export async function blockThrottle(db: Executor, scope: string, key: string, until: number): Promise<void> {
  await db
    .updateTable('throttle_counters')
    .set({ blocked_until: until })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('blocked_until', '<', until)
    .execute();
}

export async function clearThrottle(db: Executor, scope: string, key: string): Promise<void> {
  await db.deleteFrom('throttle_counters').where('scope', '=', scope).where('key', '=', key).execute();
}

/** The times of the latest `limit` events of `key` since `since`, newest first. */
export async function recentRateHits(
  db: Executor,
  scope: string,
  key: string,
  since: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('rate_hits')
    .select('at')
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.at));
}

export async function insertRateHit(db: Executor, scope: string, key: string, at: number): Promise<void> {
  await db.insertInto('rate_hits').values({ scope, key, at }).execute();
}

/** Forgets counters and events older than their windows (the scheduler's clean-up). */
export async function pruneThrottles(
  db: Executor,
  now: number,
  forgetAfterMs: number,
  hitsBefore: number,
): Promise<void> {
  await db
    .deleteFrom('throttle_counters')
    .where('last_failure_at', '<', now - forgetAfterMs)
    .where('blocked_until', '<', now)
    .execute();
  await db.deleteFrom('rate_hits').where('at', '<', hitsBefore).execute();
}
