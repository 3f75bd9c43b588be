import type { ScheduledJob } from '../scheduler/scheduler.js';
import type { ApiKeyService } from './api-keys.service.js';

/** How often the owners of keys about to expire are looked for. */
export const KEY_EXPIRY_SCAN_MS = 3600 * 1000;

/**
 * The hourly notice of API keys about to expire, run by the scheduler's lease holder only (one
 * management node of many): at its first tick, then every KEY_EXPIRY_SCAN_MS. Each key is marked
 * notified in the transaction that notifies it, so a takeover never notifies twice.
 */
export function expiringKeysJob(keys: ApiKeyService, now: () => number): ScheduledJob {
  let last: number | undefined;
  return {
    name: 'expiring-api-keys',
    async run() {
      const at = now();
      if (last !== undefined && at - last < KEY_EXPIRY_SCAN_MS) return;
      last = at;
      await keys.notifyExpiringKeys();
    },
  };
}
