import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findAuditEventNames, insertAudit, searchAudits, type AuditQuery } from './audits.repository.js';
import type { NewAuditRow } from './audits.table.js';

const NOW = 1_790_000_000_000;

function audit(id: string, changes: Partial<NewAuditRow> = {}): NewAuditRow {
  return {
    id,
    reference_type: 'API',
    reference_id: 'api1',
    event: 'API_UPDATED',
    properties: '{}',
    created_at: NOW,
    ...changes,
  };
}

const ALL = { offset: 0, limit: 100 };

for (const dialect of await testDialects()) {
  describe(`${dialect}: audits repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('audits').execute();
    });

    async function search(q: Partial<AuditQuery>): Promise<{ ids: string[]; total: number }> {
      const result = await searchAudits(t.storage.db, { ...ALL, ...q });
      return { ids: result.rows.map((r) => r.id), total: result.total };
    }

    describe('insertAudit', () => {
      it('stores every column of the entry', async () => {
        const row = {
          id: 'a1',
          reference_type: 'APPLICATION',
          reference_id: 'app1',
          user_id: 'u1',
          event: 'APPLICATION_CREATED',
          properties: '{"APPLICATION":"app1"}',
          patch: '[{"op":"add","path":"/name","value":"Mobile"}]',
          created_at: NOW,
        };
        await insertAudit(t.storage.db, row);

        expect((await searchAudits(t.storage.db, ALL)).rows).toEqual([row]);
      });

      it('leaves the user and the patch null unless given', async () => {
        await insertAudit(t.storage.db, audit('a1'));

        expect((await searchAudits(t.storage.db, ALL)).rows[0]).toMatchObject({ user_id: null, patch: null });
      });
    });

    describe('searchAudits', () => {
      it('returns every entry, newest first, when nothing filters', async () => {
        await insertAudit(t.storage.db, audit('a1', { created_at: NOW + 1 }));
        await insertAudit(t.storage.db, audit('a2', { created_at: NOW + 3 }));
        await insertAudit(t.storage.db, audit('a3', { created_at: NOW + 2, reference_type: 'ENVIRONMENT' }));

        expect(await search({})).toEqual({ ids: ['a2', 'a3', 'a1'], total: 3 });
      });

      it('orders entries of the same instant by id', async () => {
        for (const id of ['a3', 'a1', 'a2']) await insertAudit(t.storage.db, audit(id));

        expect((await search({})).ids).toEqual(['a1', 'a2', 'a3']);
      });

      it('keeps only the entries of the given references', async () => {
        await insertAudit(t.storage.db, audit('a1', { reference_type: 'API', reference_id: 'api1' }));
        await insertAudit(t.storage.db, audit('a2', { reference_type: 'API', reference_id: 'api2' }));
        await insertAudit(t.storage.db, audit('a3', { reference_type: 'API', reference_id: 'api3' }));
        await insertAudit(t.storage.db, audit('a4', { reference_type: 'APPLICATION', reference_id: 'api1' }));

        const result = await search({ references: [{ type: 'API', ids: ['api1', 'api3'] }] });

        expect(result.ids.sort()).toEqual(['a1', 'a3']);
        expect(result.total).toBe(2);
      });

      it('keeps every entry of a reference type listed without ids', async () => {
        await insertAudit(t.storage.db, audit('a1', { reference_type: 'API', reference_id: 'api1' }));
        await insertAudit(t.storage.db, audit('a2', { reference_type: 'API', reference_id: 'api2' }));
        await insertAudit(
          t.storage.db,
          audit('a3', { reference_type: 'ENVIRONMENT', reference_id: 'DEFAULT' }),
        );

        const result = await search({ references: [{ type: 'API' }] });

        expect(result.ids.sort()).toEqual(['a1', 'a2']);
        expect(result.total).toBe(2);
      });

      it('combines several references with or', async () => {
        await insertAudit(t.storage.db, audit('a1', { reference_type: 'API', reference_id: 'api1' }));
        await insertAudit(t.storage.db, audit('a2', { reference_type: 'API', reference_id: 'api2' }));
        await insertAudit(t.storage.db, audit('a3', { reference_type: 'APPLICATION', reference_id: 'app1' }));
        await insertAudit(
          t.storage.db,
          audit('a4', { reference_type: 'ENVIRONMENT', reference_id: 'DEFAULT' }),
        );

        const result = await search({
          references: [{ type: 'API', ids: ['api2'] }, { type: 'APPLICATION' }],
        });

        expect(result.ids.sort()).toEqual(['a2', 'a3']);
        expect(result.total).toBe(2);
      });

      it('returns nothing for an empty list of references', async () => {
        await insertAudit(t.storage.db, audit('a1'));

        expect(await search({ references: [] })).toEqual({ ids: [], total: 0 });
      });

      it('matches nothing for a reference type with an empty list of ids', async () => {
        await insertAudit(t.storage.db, audit('a1', { reference_type: 'API', reference_id: 'api1' }));
        await insertAudit(t.storage.db, audit('a2', { reference_type: 'APPLICATION', reference_id: 'app1' }));

        expect(await search({ references: [{ type: 'API', ids: [] }] })).toEqual({ ids: [], total: 0 });
        expect(await search({ references: [{ type: 'API', ids: [] }, { type: 'APPLICATION' }] })).toEqual({
          ids: ['a2'],
          total: 1,
        });
      });

      it('keeps only the entries of the given event', async () => {
        await insertAudit(t.storage.db, audit('a1', { event: 'API_CREATED' }));
        await insertAudit(t.storage.db, audit('a2', { event: 'API_UPDATED' }));
        await insertAudit(t.storage.db, audit('a3', { event: 'API_CREATED', reference_id: 'api2' }));

        const result = await search({ event: 'API_CREATED' });

        expect(result.ids.sort()).toEqual(['a1', 'a3']);
        expect(result.total).toBe(2);
      });

      it('keeps the entries between from and to, both included', async () => {
        for (let i = 0; i < 6; i++)
          await insertAudit(t.storage.db, audit(`a${i}`, { created_at: NOW + i * 1000 }));

        expect(await search({ from: NOW + 1000, to: NOW + 3000 })).toEqual({
          ids: ['a3', 'a2', 'a1'],
          total: 3,
        });
        expect(await search({ from: NOW + 4000 })).toEqual({ ids: ['a5', 'a4'], total: 2 });
        expect(await search({ to: NOW })).toEqual({ ids: ['a0'], total: 1 });
      });

      it('combines the reference, event and date filters', async () => {
        await insertAudit(t.storage.db, audit('hit', { event: 'PLAN_CLOSED', created_at: NOW + 10 }));
        await insertAudit(t.storage.db, audit('early', { event: 'PLAN_CLOSED', created_at: NOW }));
        await insertAudit(
          t.storage.db,
          audit('other-event', { event: 'PLAN_CREATED', created_at: NOW + 10 }),
        );
        await insertAudit(
          t.storage.db,
          audit('other-api', { event: 'PLAN_CLOSED', reference_id: 'api2', created_at: NOW + 10 }),
        );

        const result = await search({
          references: [{ type: 'API', ids: ['api1'] }],
          event: 'PLAN_CLOSED',
          from: NOW + 5,
          to: NOW + 20,
        });

        expect(result).toEqual({ ids: ['hit'], total: 1 });
      });

      it('pages with offset and limit and counts every match in the total', async () => {
        for (let i = 0; i < 5; i++) await insertAudit(t.storage.db, audit(`a${i}`, { created_at: NOW + i }));
        await insertAudit(t.storage.db, audit('other', { event: 'API_CREATED' }));

        expect(await search({ event: 'API_UPDATED', offset: 0, limit: 2 })).toEqual({
          ids: ['a4', 'a3'],
          total: 5,
        });
        expect(await search({ event: 'API_UPDATED', offset: 2, limit: 2 })).toEqual({
          ids: ['a2', 'a1'],
          total: 5,
        });
        expect(await search({ event: 'API_UPDATED', offset: 4, limit: 2 })).toEqual({
          ids: ['a0'],
          total: 5,
        });
        expect(await search({ event: 'API_UPDATED', offset: 6, limit: 2 })).toEqual({ ids: [], total: 5 });
      });
    });

    describe('findAuditEventNames', () => {
      it('returns each event name once, in alphabetical order', async () => {
        await insertAudit(t.storage.db, audit('a1', { event: 'PLAN_CREATED' }));
        await insertAudit(t.storage.db, audit('a2', { event: 'API_UPDATED' }));
        await insertAudit(t.storage.db, audit('a3', { event: 'PLAN_CREATED' }));
        await insertAudit(t.storage.db, audit('a4', { event: 'API_CREATED' }));

        expect(await findAuditEventNames(t.storage.db)).toEqual([
          'API_CREATED',
          'API_UPDATED',
          'PLAN_CREATED',
        ]);
      });

      it('returns nothing when the trail is empty', async () => {
        expect(await findAuditEventNames(t.storage.db)).toEqual([]);
      });
    });
  });
}
