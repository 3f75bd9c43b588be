import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deletePlansOfApi,
  findPlanById,
  findPlansByApi,
  insertPlan,
  updatePlan,
} from './plans.repository.js';
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
  describe(`${dialect}: plans of an API`, () => {
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

    describe('findPlansByApi', () => {
      it('lists the plans of one API in their order', async () => {
        await insertPlan(t.storage.db, plan('p1', { order: 2 }));
        await insertPlan(t.storage.db, plan('p2', { order: 1 }));
        await insertPlan(t.storage.db, plan('p3', { api_id: 'api2' }));

        expect((await findPlansByApi(t.storage.db, 'api1')).map((p) => p.id)).toEqual(['p2', 'p1']);
      });

      it('keeps only the statuses asked for, and nothing for an empty list', async () => {
        await insertPlan(t.storage.db, plan('p1', { status: 'PUBLISHED' }));
        await insertPlan(t.storage.db, plan('p2', { status: 'DEPRECATED' }));
        await insertPlan(t.storage.db, plan('p3', { status: 'CLOSED' }));
        await insertPlan(t.storage.db, plan('p4', { status: 'STAGING' }));

        const ids = async (statuses?: string[]) =>
          (await findPlansByApi(t.storage.db, 'api1', statuses)).map((p) => p.id).sort();

        expect(await ids(['PUBLISHED', 'DEPRECATED'])).toEqual(['p1', 'p2']);
        expect(await ids(['CLOSED'])).toEqual(['p3']);
        expect(await ids([])).toEqual([]);
        expect(await ids()).toEqual(['p1', 'p2', 'p3', 'p4']);
      });
    });

    describe('updatePlan', () => {
      it('changes the given columns of one plan', async () => {
        await insertPlan(t.storage.db, plan('p1'));
        await insertPlan(t.storage.db, plan('p2'));

        expect(await updatePlan(t.storage.db, 'p1', { status: 'PUBLISHED', published_at: NOW + 1 })).toBe(1);
        expect(await updatePlan(t.storage.db, 'nope', { status: 'PUBLISHED' })).toBe(0);

        expect(await findPlanById(t.storage.db, 'p1')).toMatchObject({
          status: 'PUBLISHED',
          published_at: NOW + 1,
        });
        expect(await findPlanById(t.storage.db, 'p2')).toMatchObject({
          status: 'STAGING',
          published_at: null,
        });
      });
    });

    describe('deletePlansOfApi', () => {
      it('deletes every plan of one API only', async () => {
        await insertPlan(t.storage.db, plan('p1'));
        await insertPlan(t.storage.db, plan('p2', { status: 'CLOSED' }));
        await insertPlan(t.storage.db, plan('p3', { api_id: 'api2' }));

        expect(await deletePlansOfApi(t.storage.db, 'api1')).toBe(2);
        expect(await findPlansByApi(t.storage.db, 'api1')).toEqual([]);
        expect(await findPlansByApi(t.storage.db, 'api2')).toHaveLength(1);
      });
    });
  });
}
