import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase, testDialects } from '@portico/storage/testing';
import { countRequests, insertRequestBatch } from '@portico/storage';
import type { NewRequestRow } from '@portico/storage';
import { RETENTION_EVERY_MS, requestRetentionJob } from './retention.job.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 12);
const row = (id: string, timestamp: number): NewRequestRow => ({
  ...{ id, transaction_id: id, timestamp, gateway: 'gw', api_id: 'a', application_id: null, plan_id: null },
  ...{ subscription_id: null, api_key: null, user: null, tenant: null, method: 'GET', path: '/', uri: '/' },
  ...{ mapped_path: null, host: null, status: 200, request_content_length: 0, response_content_length: 0 },
  ...{ response_time: 5, api_response_time: 4, latency: 1, endpoint: null, remote_address: null },
  ...{ user_agent: null, security_type: null, error_key: null, message: null, has_log: 0 },
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: analytics retention job`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(() => t.destroy());

    it('keeps raw rows for requestDays and rollups for rollupDays, at most once an hour', async () => {
      let now = NOW;
      const job = requestRetentionJob({
        db: t.storage.db,
        retention: { requestDays: 2, rollupDays: 10 },
        now: () => now,
        log: { info: () => {} },
      });
      const ages = [1, 3, 5, 20];
      await insertRequestBatch(
        t.storage.db,
        ages.map((age) => row(`age${age}`, NOW - age * DAY)),
        [],
      );
      await job.run();
      const window = { from: NOW - 30 * DAY, to: NOW };
      expect(await countRequests(t.storage.db, { ...window, raw: true })).toBe(1);
      expect(await countRequests(t.storage.db, window)).toBe(3);

      // Within the hour nothing runs; after it, the next pass does.
      await insertRequestBatch(t.storage.db, [row('late', NOW - 4 * DAY)], []);
      now += RETENTION_EVERY_MS - 1;
      await job.run();
      expect(await countRequests(t.storage.db, { ...window, raw: true })).toBe(2);
      now += 1;
      await job.run();
      expect(await countRequests(t.storage.db, { ...window, raw: true })).toBe(1);
    });
  });
}
