import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findPlanById, findPlansByIds, insertPlan } from './plans.repository.js';
import type { NewPlanRow } from './plans.table.js';

const NOW = 1_790_000_000_000;

function plan(id: string, changes: Partial<NewPlanRow> = {}): NewPlanRow {
  return {
    id,
    api_id: 'api1',
    name: `Plan ${id}`,
    security: 'KEY_LESS',
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
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: plans repository`, () => {
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

    describe('insertPlan and findPlanById', () => {
      it('stores every column and reads the plan back', async () => {
        const row = {
          id: 'p1',
          api_id: 'api1',
          name: 'Gold',
          description: 'For partners',
          security: 'API_KEY',
          security_definition: '{"propagate":true}',
          validation: 'AUTO',
          type: 'API',
          status: 'PUBLISHED',
          order: 2,
          characteristics: '["fast"]',
          paths: '{"/":[]}',
          excluded_groups: '["g1"]',
          comment_required: 1,
          comment_message: 'Why?',
          created_at: NOW,
          updated_at: NOW + 1,
          published_at: NOW + 2,
          closed_at: NOW + 3,
          tags: '["eu"]',
        };
        await insertPlan(t.storage.db, row);

        expect(await findPlanById(t.storage.db, 'p1')).toEqual(row);
      });

      it('leaves the optional columns null', async () => {
        await insertPlan(t.storage.db, plan('p1'));

        expect(await findPlanById(t.storage.db, 'p1')).toMatchObject({
          description: null,
          security_definition: null,
          comment_message: null,
          published_at: null,
          closed_at: null,
        });
      });

      it('returns undefined for an unknown id', async () => {
        await insertPlan(t.storage.db, plan('p1'));

        expect(await findPlanById(t.storage.db, 'p2')).toBeUndefined();
      });

      it('refuses a second plan with the same id', async () => {
        await insertPlan(t.storage.db, plan('p1', { name: 'First' }));

        await expect(insertPlan(t.storage.db, plan('p1', { name: 'Second' }))).rejects.toThrow();
        expect((await findPlanById(t.storage.db, 'p1'))?.name).toBe('First');
      });
    });

    describe('findPlansByIds', () => {
      it('returns the plans asked for, ignoring unknown ids', async () => {
        for (const id of ['p1', 'p2', 'p3']) await insertPlan(t.storage.db, plan(id));

        const rows = await findPlansByIds(t.storage.db, ['p3', 'p1', 'p9']);

        expect(rows.map((r) => r.id).sort()).toEqual(['p1', 'p3']);
      });

      it('returns nothing for an empty list', async () => {
        await insertPlan(t.storage.db, plan('p1'));

        expect(await findPlansByIds(t.storage.db, [])).toEqual([]);
      });
    });
  });
}
