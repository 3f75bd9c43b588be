import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findApplicationById, findApplicationsByIds, insertApplication } from './applications.repository.js';
import type { NewApplicationRow } from './applications.table.js';

const NOW = 1_790_000_000_000;

function application(id: string, changes: Partial<NewApplicationRow> = {}): NewApplicationRow {
  return {
    id,
    name: `App ${id}`,
    type: 'SIMPLE',
    status: 'ACTIVE',
    groups: '[]',
    settings: '{}',
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: applications repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('applications').execute();
    });

    describe('insertApplication and findApplicationById', () => {
      it('stores every column and reads the application back', async () => {
        const row = {
          id: 'app1',
          name: 'Mobile',
          description: 'The mobile app',
          type: 'BACKEND_TO_BACKEND',
          status: 'ARCHIVED',
          client_id: 'mobile-client',
          groups: '["g1"]',
          settings: '{"app":{"type":"ios"}}',
          picture: 'data:image/png;base64,AAAA',
          created_at: NOW,
          updated_at: NOW + 1,
        };
        await insertApplication(t.storage.db, row);

        expect(await findApplicationById(t.storage.db, 'app1')).toEqual(row);
      });

      it('leaves the optional columns null', async () => {
        await insertApplication(t.storage.db, application('app1'));

        expect(await findApplicationById(t.storage.db, 'app1')).toMatchObject({
          description: null,
          client_id: null,
          picture: null,
        });
      });

      it('returns undefined for an unknown id', async () => {
        await insertApplication(t.storage.db, application('app1'));

        expect(await findApplicationById(t.storage.db, 'app2')).toBeUndefined();
      });

      it('refuses a second application with the same id', async () => {
        await insertApplication(t.storage.db, application('app1', { name: 'First' }));

        await expect(
          insertApplication(t.storage.db, application('app1', { name: 'Second' })),
        ).rejects.toThrow();
        expect((await findApplicationById(t.storage.db, 'app1'))?.name).toBe('First');
      });
    });

    describe('findApplicationsByIds', () => {
      it('returns the applications asked for, ignoring unknown ids', async () => {
        for (const id of ['app1', 'app2', 'app3']) await insertApplication(t.storage.db, application(id));

        const rows = await findApplicationsByIds(t.storage.db, ['app2', 'app3', 'app9']);

        expect(rows.map((r) => r.id).sort()).toEqual(['app2', 'app3']);
      });

      it('returns nothing for an empty list', async () => {
        await insertApplication(t.storage.db, application('app1'));

        expect(await findApplicationsByIds(t.storage.db, [])).toEqual([]);
      });
    });
  });
}
