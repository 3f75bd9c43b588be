import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { deletePlan, findPlanById, findPlansByApi, insertPlan, updatePlan } from './plans.repository.js';
import type { NewPlanRow } from './plans.table.js';

const NOW = 1_790_000_000_000;

const plan = (id: string, changes: Partial<NewPlanRow> = {}): NewPlanRow => ({
  id,
  api_id: 'api1',
  name: `Plan ${id}`,
  security: 'API_KEY',
  validation: 'MANUAL',
  type: 'API',
  status: 'STAGING',
  order: 0,
  characteristics: '[]',
  paths: '{}',
  excluded_groups: '[]',
  comment_required: 0,
  created_at: NOW,
  updated_at: NOW,
  ...changes,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: plan changes`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('plans').execute();
    });

    describe('sharding tags', () => {
      it('gives a plan no sharding tag unless told', async () => {
        await insertPlan(t.storage.db, plan('p1'));
        expect((await findPlanById(t.storage.db, 'p1'))?.tags).toBe('[]');
      });

      it('stores and changes the tags of a plan', async () => {
        await insertPlan(t.storage.db, plan('p1', { tags: '["eu"]' }));
        await updatePlan(t.storage.db, 'p1', { tags: '["eu","us"]' });
        expect((await findPlanById(t.storage.db, 'p1'))?.tags).toBe('["eu","us"]');
      });
    });

    describe('deletePlan', () => {
      it('removes the plan and only it', async () => {
        await insertPlan(t.storage.db, plan('p1'));
        await insertPlan(t.storage.db, plan('p2'));
        expect(await deletePlan(t.storage.db, 'p1')).toBe(1);
        expect(await findPlanById(t.storage.db, 'p1')).toBeUndefined();
        expect((await findPlansByApi(t.storage.db, 'api1')).map((p) => p.id)).toEqual(['p2']);
      });

      it('answers 0 for an unknown plan', async () => {
        expect(await deletePlan(t.storage.db, 'nope')).toBe(0);
      });
    });
  });
}
