import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  countSubscriptionsOfPlan,
  findSubscribedApiIdsOfApplication,
  findSubscriberIdsOfApi,
  findSubscriptionById,
  findSubscriptions,
  insertSubscription,
  searchSubscriptions,
  updateSubscription,
} from './subscriptions.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: subscription lists`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      let n = 0;
      for (const [api, plan, app, status] of [
        ['api1', 'p1', 'app1', 'ACCEPTED'],
        ['api1', 'p1', 'app2', 'PENDING'],
        ['api1', 'p2', 'app1', 'PAUSED'],
        ['api1', 'p2', 'app3', 'CLOSED'],
        ['api2', 'p3', 'app1', 'REJECTED'],
        ['api2', 'p3', 'app2', 'ACCEPTED'],
      ] as const) {
        await insertSubscription(t.storage.db, {
          id: `s${n}`,
          api_id: api,
          plan_id: plan,
          application_id: app,
          status,
          created_at: NOW + n++,
          updated_at: NOW,
        });
      }
    });
    afterAll(async () => {
      await t.destroy();
    });

    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

    describe('findSubscriptions', () => {
      it('combines the criteria, newest first', async () => {
        expect(ids(await findSubscriptions(t.storage.db, { apiIds: ['api1'] }))).toEqual([
          's3',
          's2',
          's1',
          's0',
        ]);
        expect(
          ids(
            await findSubscriptions(t.storage.db, {
              applicationIds: ['app1'],
              statuses: ['ACCEPTED', 'PAUSED'],
            }),
          ),
        ).toEqual(['s2', 's0']);
        expect(ids(await findSubscriptions(t.storage.db, { planIds: ['p3'], apiIds: ['api2'] }))).toEqual([
          's5',
          's4',
        ]);
      });

      it('matches nothing when a criterion is an empty list', async () => {
        expect(await findSubscriptions(t.storage.db, { apiIds: ['api1'], statuses: [] })).toEqual([]);
      });
    });

    describe('searchSubscriptions', () => {
      it('answers one page and the total', async () => {
        const first = await searchSubscriptions(t.storage.db, { apiIds: ['api1'] }, { offset: 0, limit: 3 });
        const second = await searchSubscriptions(t.storage.db, { apiIds: ['api1'] }, { offset: 3, limit: 3 });
        expect(ids(first.rows)).toEqual(['s3', 's2', 's1']);
        expect(ids(second.rows)).toEqual(['s0']);
        expect([first.total, second.total]).toEqual([4, 4]);
      });

      it('answers nothing for an empty criterion', async () => {
        expect(await searchSubscriptions(t.storage.db, { planIds: [] }, { offset: 0, limit: 10 })).toEqual({
          rows: [],
          total: 0,
        });
      });
    });

    it('lists the subscribers of an API and the APIs of an application, by status', async () => {
      expect(
        (await findSubscriberIdsOfApi(t.storage.db, 'api1', ['ACCEPTED', 'PENDING', 'PAUSED'])).sort(),
      ).toEqual(['app1', 'app2']);
      expect(
        (await findSubscribedApiIdsOfApplication(t.storage.db, 'app1', ['ACCEPTED', 'PAUSED'])).sort(),
      ).toEqual(['api1']);
      expect(await findSubscribedApiIdsOfApplication(t.storage.db, 'app1', [])).toEqual([]);
    });

    it('counts the subscriptions of a plan having one of the statuses', async () => {
      expect(await countSubscriptionsOfPlan(t.storage.db, 'p2', ['PAUSED', 'CLOSED'])).toBe(2);
      expect(await countSubscriptionsOfPlan(t.storage.db, 'p2', ['ACCEPTED'])).toBe(0);
      expect(await countSubscriptionsOfPlan(t.storage.db, 'p2', [])).toBe(0);
    });

    it('changes some columns of one subscription', async () => {
      expect(
        await updateSubscription(t.storage.db, 's1', {
          status: 'ACCEPTED',
          processed_at: NOW + 9,
          updated_at: NOW + 9,
        }),
      ).toBe(1);
      expect(await findSubscriptionById(t.storage.db, 's1')).toMatchObject({
        status: 'ACCEPTED',
        processed_at: NOW + 9,
        updated_at: NOW + 9,
        plan_id: 'p1',
      });
      expect((await findSubscriptionById(t.storage.db, 's0'))?.updated_at).toBe(NOW);
      expect(await updateSubscription(t.storage.db, 'nope', { status: 'CLOSED' })).toBe(0);
    });
  });
}
