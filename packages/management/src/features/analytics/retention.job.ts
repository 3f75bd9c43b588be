import type { Database } from '@portico/storage';
import { applyRequestRetention } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { ScheduledJob } from '../scheduler/scheduler.js';

/** How long analytics data is kept (configuration `analytics.*RetentionDays`, README "Analytics storage"). */
export interface AnalyticsRetention {
  /** Raw request rows and their logs (the logs screens, filters on any field): days. */
  requestDays: number;
  /** Per-minute rollups (the dashboards): days. */
  rollupDays: number;
}

export const DEFAULT_ANALYTICS_RETENTION: AnalyticsRetention = { requestDays: 30, rollupDays: 400 };

/** PostgreSQL day partitions are created this many days ahead. */
const PARTITION_DAYS_AHEAD = 3;
/** The job's work is done at most this often (the scheduler ticks every second). */
export const RETENTION_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface RetentionJobDeps {
  db: Kysely<Database>;
  retention: AnalyticsRetention;
  now(): number;
  log: { info(details: object, message: string): void };
}

/**
 * Deletes analytics data past its retention and, on PostgreSQL, creates the coming days' partitions
 * and drops the expired ones. Runs in the scheduler's lease holder, once at start and then hourly;
 * each pass is idempotent, so a takeover by another process never harms.
 */
export function requestRetentionJob(deps: RetentionJobDeps): ScheduledJob {
  let last: number | undefined;
  return {
    name: 'analytics-retention',
    async run() {
      const now = deps.now();
      if (last !== undefined && now - last < RETENTION_EVERY_MS) return;
      last = now;
      let result;
      try {
        result = await applyRequestRetention(deps.db, {
          requestsBefore: now - deps.retention.requestDays * DAY_MS,
          rollupsBefore: now - deps.retention.rollupDays * DAY_MS,
          now,
          daysAhead: PARTITION_DAYS_AHEAD,
        });
      } catch (error) {
        // Tried again in a minute (the scheduler logs the failure).
        last = now - RETENTION_EVERY_MS + 60_000;
        throw error;
      }
      if (result.dropped.length || result.deletedRequests || result.deletedRollups) {
        deps.log.info({ ...result }, 'analytics retention applied');
      }
    },
  };
}
