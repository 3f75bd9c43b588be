import type { Database } from '@portico/storage';
import { pruneThrottles } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { ScheduledJob } from '../scheduler/scheduler.js';
import { MAIL_LIMITS_WINDOW_MS } from '../users/mail-rate-limit.js';
import { FORGET_FAILURES_AFTER_MS } from './login-throttle.js';

const EVERY_MS = 60_000;

/** Forgets sign-in failures and counted mails older than their windows, once a minute. */
export function throttleCleanupJob(db: Kysely<Database>, now: () => number): ScheduledJob {
  let last: number | undefined;
  return {
    name: 'throttle-cleanup',
    async run() {
      const at = now();
      if (last !== undefined && at - last < EVERY_MS) return;
      last = at;
      await pruneThrottles(db, at, FORGET_FAILURES_AFTER_MS, at - MAIL_LIMITS_WINDOW_MS);
    },
  };
}
