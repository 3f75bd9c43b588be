import { PostgresAdapter, sql } from 'kysely';
import type { AnyKysely } from './partitions.js';
import { ROLLUP_TIERS } from './rollups.js';
import {
  DAY_MS,
  PARTITIONED_TABLES,
  daysBetween,
  dropDayPartitionsBefore,
  ensureDayPartitions,
} from './partitions.js';

export interface RetentionPolicy {
  /** Raw request rows and their logs older than this (ms since the epoch) are deleted. */
  requestsBefore: number;
  /** Rollup minutes older than this are deleted. */
  rollupsBefore: number;
  /** PostgreSQL: day partitions exist from today to this many days ahead. */
  now: number;
  daysAhead: number;
}

export interface RetentionResult {
  /** PostgreSQL partitions created and dropped (names). */
  created: string[];
  dropped: string[];
  /** Rows deleted (SQLite raw rows and both databases' rollups; PostgreSQL's default partitions). */
  deletedRequests: number;
  deletedRollups: number;
}

/** Rows deleted per statement on SQLite: the writer lock is held briefly, the gateways keep writing. */
const DELETE_CHUNK = 5000;

/**
 * Applies the retention of analytics storage: on PostgreSQL creates the coming days' partitions and
 * drops those wholly before the cutoff (instant, no dead rows); on SQLite deletes old rows in chunks.
 * Rollups are kept longer and deleted by minute. Idempotent: running it twice changes nothing more.
 */
export async function applyRequestRetention(
  db: AnyKysely,
  policy: RetentionPolicy,
): Promise<RetentionResult> {
  const result: RetentionResult = { created: [], dropped: [], deletedRequests: 0, deletedRollups: 0 };
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const today = Math.floor(policy.now / DAY_MS) * DAY_MS;
    for (const table of PARTITIONED_TABLES) {
      const days = daysBetween(today, today + policy.daysAhead * DAY_MS);
      result.created.push(...(await ensureDayPartitions(db, table, days)));
      result.dropped.push(...(await dropDayPartitionsBefore(db, table, policy.requestsBefore)));
    }
  } else {
    for (const table of PARTITIONED_TABLES) {
      for (;;) {
        const deleted = await sql`delete from ${sql.id(table)} where rowid in (select rowid from ${sql.id(
          table,
        )} where "timestamp" < ${policy.requestsBefore} limit ${DELETE_CHUNK})`.execute(db);
        const n = Number(deleted.numAffectedRows ?? 0);
        if (table === 'requests') result.deletedRequests += n;
        if (n < DELETE_CHUNK) break;
      }
    }
  }
  for (const tier of ROLLUP_TIERS) {
    const rollups =
      await sql`delete from ${sql.table(tier.table)} where "minute" < ${policy.rollupsBefore}`.execute(db);
    result.deletedRollups += Number(rollups.numAffectedRows ?? 0);
  }
  return result;
}
