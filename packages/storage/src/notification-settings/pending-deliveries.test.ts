import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  insertNotificationDelivery,
  pendingNotificationDeliveries,
} from './notification-settings.repository.js';
import type { NewNotificationDeliveryRow } from './notification-settings.table.js';

const NOW = 1_790_000_000_000;

const delivery = (id: string, status: string, created_at: number): NewNotificationDeliveryRow => ({
  id,
  setting_id: 's1',
  notifier: 'WEBHOOK',
  hook: 'APIKEY_EXPIRED',
  target: 'https://hooks.example.com/',
  use_system_proxy: 0,
  payload: '{}',
  status,
  attempts: 0,
  next_attempt_at: created_at,
  last_error: null,
  created_at,
  updated_at: created_at,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: pending notification deliveries (metrics)`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });

    it('counts the pending deliveries and gives the oldest one’s creation time', async () => {
      expect(await pendingNotificationDeliveries(t.storage.db)).toEqual({ count: 0, oldestCreatedAt: null });
      await insertNotificationDelivery(t.storage.db, delivery('d1', 'PENDING', NOW + 5));
      await insertNotificationDelivery(t.storage.db, delivery('d2', 'PENDING', NOW + 1));
      await insertNotificationDelivery(t.storage.db, delivery('d3', 'SENT', NOW));
      await insertNotificationDelivery(t.storage.db, delivery('d4', 'FAILED', NOW));
      expect(await pendingNotificationDeliveries(t.storage.db)).toEqual({
        count: 2,
        oldestCreatedAt: NOW + 1,
      });
    });
  });
}
