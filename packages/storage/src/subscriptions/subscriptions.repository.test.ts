import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  findPendingSubscriptionsOfApis,
  findSubscriptionById,
  insertSubscription,
} from './subscriptions.repository.js';
import type { NewSubscriptionRow } from './subscriptions.table.js';

const NOW = 1_790_000_000_000;

function subscription(id: string, changes: Partial<NewSubscriptionRow> = {}): NewSubscriptionRow {
  return {
    id,
    api_id: 'api1',
    plan_id: 'plan1',
    application_id: 'app1',
    status: 'PENDING',
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

const ALL = { offset: 0, limit: 100 };

for (const dialect of await testDialects()) {
  describe(`${dialect}: subscriptions repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('subscriptions').execute();
    });

    describe('insertSubscription and findSubscriptionById', () => {
      it('stores every column and reads the subscription back', async () => {
        const row = {
          id: 's1',
          api_id: 'api1',
          plan_id: 'plan1',
          application_id: 'app1',
          status: 'ACCEPTED',
          request: 'Please',
          reason: 'Welcome',
          client_id: 'client-1',
          subscribed_by: 'u1',
          processed_by: 'u2',
          created_at: NOW,
          updated_at: NOW + 1,
          processed_at: NOW + 2,
          starting_at: NOW + 3,
          ending_at: NOW + 4,
          paused_at: NOW + 5,
          closed_at: NOW + 6,
        };
        await insertSubscription(t.storage.db, row);

        expect(await findSubscriptionById(t.storage.db, 's1')).toEqual({
          ...row,
          // PostgreSQL: the writing transaction (the gateways' sync order); SQLite leaves it empty.
          sync_tx: dialect === 'postgres' ? expect.any(Number) : null,
        });
      });

      it('leaves the optional columns null', async () => {
        await insertSubscription(t.storage.db, subscription('s1'));

        expect(await findSubscriptionById(t.storage.db, 's1')).toMatchObject({
          request: null,
          reason: null,
          client_id: null,
          subscribed_by: null,
          processed_by: null,
          processed_at: null,
          starting_at: null,
          ending_at: null,
          paused_at: null,
          closed_at: null,
        });
      });

      it('returns undefined for an unknown id', async () => {
        await insertSubscription(t.storage.db, subscription('s1'));

        expect(await findSubscriptionById(t.storage.db, 's2')).toBeUndefined();
      });

      it('refuses a second subscription with the same id', async () => {
        await insertSubscription(t.storage.db, subscription('s1'));

        await expect(insertSubscription(t.storage.db, subscription('s1'))).rejects.toThrow();
      });
    });

    describe('findPendingSubscriptionsOfApis', () => {
      it('returns only the pending subscriptions of the given APIs, oldest first', async () => {
        await insertSubscription(t.storage.db, subscription('s1', { api_id: 'api1', created_at: NOW + 3 }));
        await insertSubscription(t.storage.db, subscription('s2', { api_id: 'api2', created_at: NOW + 1 }));
        await insertSubscription(t.storage.db, subscription('s3', { api_id: 'api3', created_at: NOW }));
        await insertSubscription(t.storage.db, subscription('s4', { api_id: 'api1', status: 'ACCEPTED' }));
        await insertSubscription(t.storage.db, subscription('s5', { api_id: 'api2', status: 'REJECTED' }));

        const result = await findPendingSubscriptionsOfApis(t.storage.db, ['api1', 'api2'], ALL);

        expect(result.rows.map((r) => r.id)).toEqual(['s2', 's1']);
        expect(result.total).toBe(2);
      });

      it("returns the pending subscriptions of every API for 'all'", async () => {
        await insertSubscription(t.storage.db, subscription('s1', { api_id: 'api1', created_at: NOW + 1 }));
        await insertSubscription(t.storage.db, subscription('s2', { api_id: 'api2', created_at: NOW }));
        await insertSubscription(t.storage.db, subscription('s3', { api_id: 'api3', status: 'CLOSED' }));

        const result = await findPendingSubscriptionsOfApis(t.storage.db, 'all', ALL);

        expect(result.rows.map((r) => r.id)).toEqual(['s2', 's1']);
        expect(result.total).toBe(2);
      });

      it('returns nothing for an empty list of APIs', async () => {
        await insertSubscription(t.storage.db, subscription('s1'));

        expect(await findPendingSubscriptionsOfApis(t.storage.db, [], ALL)).toEqual({ rows: [], total: 0 });
      });

      it('orders subscriptions created at the same instant by id', async () => {
        for (const id of ['s3', 's1', 's2']) await insertSubscription(t.storage.db, subscription(id));

        const result = await findPendingSubscriptionsOfApis(t.storage.db, ['api1'], ALL);

        expect(result.rows.map((r) => r.id)).toEqual(['s1', 's2', 's3']);
      });

      it('pages with offset and limit and counts every pending subscription in the total', async () => {
        for (let i = 0; i < 5; i++) {
          await insertSubscription(t.storage.db, subscription(`s${i}`, { created_at: NOW + i }));
        }
        await insertSubscription(t.storage.db, subscription('done', { status: 'ACCEPTED' }));

        const first = await findPendingSubscriptionsOfApis(t.storage.db, ['api1'], { offset: 0, limit: 2 });
        const last = await findPendingSubscriptionsOfApis(t.storage.db, ['api1'], { offset: 4, limit: 2 });
        const beyond = await findPendingSubscriptionsOfApis(t.storage.db, 'all', { offset: 5, limit: 2 });

        expect(first).toMatchObject({ total: 5 });
        expect(first.rows.map((r) => r.id)).toEqual(['s0', 's1']);
        expect(last).toMatchObject({ total: 5 });
        expect(last.rows.map((r) => r.id)).toEqual(['s4']);
        expect(beyond).toEqual({ rows: [], total: 5 });
      });
    });
  });
}
