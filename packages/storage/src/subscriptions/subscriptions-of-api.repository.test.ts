import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { countSubscriptionsOfApi, insertSubscription } from './subscriptions.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: subscriptions of an API`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      let n = 0;
      for (const [api, status] of [
        ['api1', 'ACCEPTED'],
        ['api1', 'PENDING'],
        ['api1', 'PAUSED'],
        ['api1', 'CLOSED'],
        ['api1', 'REJECTED'],
        ['api2', 'ACCEPTED'],
      ] as const) {
        await insertSubscription(t.storage.db, {
          id: `s${n++}`,
          api_id: api,
          plan_id: 'p1',
          application_id: 'app1',
          status,
          created_at: NOW,
          updated_at: NOW,
        });
      }
    });
    afterAll(async () => {
      await t.destroy();
    });

    it('counts the subscriptions of one API having one of the statuses', async () => {
      expect(await countSubscriptionsOfApi(t.storage.db, 'api1', ['ACCEPTED', 'PENDING', 'PAUSED'])).toBe(3);
      expect(await countSubscriptionsOfApi(t.storage.db, 'api1', ['CLOSED'])).toBe(1);
      expect(await countSubscriptionsOfApi(t.storage.db, 'api2', ['PENDING'])).toBe(0);
      expect(await countSubscriptionsOfApi(t.storage.db, 'api3', ['ACCEPTED'])).toBe(0);
    });

    it('counts nothing for an empty list of statuses', async () => {
      expect(await countSubscriptionsOfApi(t.storage.db, 'api1', [])).toBe(0);
    });
  });
}
