import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteApi,
  findApiById,
  findApiContextPaths,
  findApiIdsInGroups,
  findApisByIds,
  findContextPathClashes,
  insertApi,
  replaceApiContextPaths,
  updateApi,
} from './apis.repository.js';
import { NOW, api } from './test-support.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: apis repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('apis').execute();
    });
    describe('insertApi and findApiById', () => {
      it('stores every column and reads the API back', async () => {
        const row = {
          id: 'a1',
          name: 'Echo',
          version: '2.1',
          description: 'Says it back',
          context_path: '/echo',
          definition: '{"proxy":{"context_path":"/echo"}}',
          state: 'STARTED',
          visibility: 'PUBLIC',
          lifecycle_state: 'PUBLISHED',
          picture: 'data:image/png;base64,AAAA',
          labels: '["beta"]',
          views: '["v1"]',
          groups: '["g1"]',
          tags: '["internal"]',
          deployed_at: NOW + 2,
          created_at: NOW,
          updated_at: NOW + 1,
        };
        await insertApi(t.storage.db, row);

        expect(await findApiById(t.storage.db, 'a1')).toEqual(row);
      });

      it('leaves the optional columns null and the tags an empty list', async () => {
        await insertApi(t.storage.db, api('a1'));

        expect(await findApiById(t.storage.db, 'a1')).toMatchObject({
          description: null,
          picture: null,
          deployed_at: null,
          tags: '[]',
        });
      });

      it('returns undefined for an unknown id', async () => {
        await insertApi(t.storage.db, api('a1'));

        expect(await findApiById(t.storage.db, 'a2')).toBeUndefined();
      });

      it('refuses a second API with the same id', async () => {
        await insertApi(t.storage.db, api('a1', { name: 'First' }));

        await expect(insertApi(t.storage.db, api('a1', { name: 'Second' }))).rejects.toThrow();
        expect((await findApiById(t.storage.db, 'a1'))?.name).toBe('First');
      });
    });

    describe('findApisByIds', () => {
      it('returns the APIs asked for, ignoring unknown ids', async () => {
        for (const id of ['a1', 'a2', 'a3']) await insertApi(t.storage.db, api(id));

        const rows = await findApisByIds(t.storage.db, ['a3', 'a1', 'a9']);

        expect(rows.map((r) => r.id).sort()).toEqual(['a1', 'a3']);
      });

      it('returns nothing for an empty list', async () => {
        await insertApi(t.storage.db, api('a1'));

        expect(await findApisByIds(t.storage.db, [])).toEqual([]);
      });
    });

    describe('findApiIdsInGroups', () => {
      it('returns the APIs whose group list holds one of the groups', async () => {
        await insertApi(t.storage.db, api('a1', { groups: '["g1"]' }));
        await insertApi(t.storage.db, api('a2', { groups: '["g3","g2"]' }));
        await insertApi(t.storage.db, api('a3', { groups: '["g3"]' }));
        await insertApi(t.storage.db, api('a4', { groups: '[]' }));

        const found = await findApiIdsInGroups(t.storage.db, ['g1', 'g2']);

        expect(found.sort()).toEqual(['a1', 'a2']);
      });

      it('matches whole group ids, not ids that merely contain them', async () => {
        await insertApi(t.storage.db, api('a1', { groups: '["g10"]' }));
        await insertApi(t.storage.db, api('a2', { groups: '["xg1"]' }));
        await insertApi(t.storage.db, api('a3', { groups: '["g1"]' }));

        expect(await findApiIdsInGroups(t.storage.db, ['g1'])).toEqual(['a3']);
      });

      it('matches group ids with LIKE wildcards literally', async () => {
        await insertApi(t.storage.db, api('a1', { groups: '["team_a"]' }));
        await insertApi(t.storage.db, api('a2', { groups: '["teamXa"]' }));
        await insertApi(t.storage.db, api('a3', { groups: '["team"]' }));

        expect(await findApiIdsInGroups(t.storage.db, ['team_a'])).toEqual(['a1']);
        expect(await findApiIdsInGroups(t.storage.db, ['%'])).toEqual([]);
        expect(await findApiIdsInGroups(t.storage.db, ['team%'])).toEqual([]);
      });

      it('matches group ids holding quotes or backslashes as JSON writes them', async () => {
        await insertApi(t.storage.db, api('a1', { groups: JSON.stringify(['say "hi"']) }));
        await insertApi(t.storage.db, api('a2', { groups: JSON.stringify(['corp\\team']) }));
        await insertApi(t.storage.db, api('a3', { groups: JSON.stringify(['hi', 'corpteam']) }));

        expect(await findApiIdsInGroups(t.storage.db, ['say "hi"'])).toEqual(['a1']);
        expect(await findApiIdsInGroups(t.storage.db, ['corp\\team'])).toEqual(['a2']);
      });

      it('returns nothing for an empty list of groups', async () => {
        await insertApi(t.storage.db, api('a1', { groups: '["g1"]' }));

        expect(await findApiIdsInGroups(t.storage.db, [])).toEqual([]);
      });
    });
    describe('updateApi and deleteApi', () => {
      it('changes only the given columns and answers the number of rows changed', async () => {
        await insertApi(t.storage.db, api('a1', { description: 'old' }));

        const changed = await updateApi(t.storage.db, 'a1', { state: 'STARTED', updated_at: NOW + 5 });

        expect(changed).toBe(1);
        expect(await findApiById(t.storage.db, 'a1')).toMatchObject({
          state: 'STARTED',
          updated_at: NOW + 5,
          description: 'old',
          name: 'API a1',
        });
      });

      it('answers 0 for an unknown API', async () => {
        expect(await updateApi(t.storage.db, 'nope', { state: 'STARTED' })).toBe(0);
      });

      it('deletes one API and leaves the others', async () => {
        await insertApi(t.storage.db, api('a1'));
        await insertApi(t.storage.db, api('a2'));

        await deleteApi(t.storage.db, 'a1');

        expect(await findApiById(t.storage.db, 'a1')).toBeUndefined();
        expect(await findApiById(t.storage.db, 'a2')).toBeDefined();
      });
    });

    describe('context paths', () => {
      beforeEach(async () => {
        await t.storage.db.deleteFrom('api_context_paths').execute();
      });

      it('replaces the entrypoints of an API, once each', async () => {
        await replaceApiContextPaths(t.storage.db, 'a1', [{ host: '', path: '/old' }]);
        await replaceApiContextPaths(t.storage.db, 'a1', [
          { host: 'api.example.com', path: '/v1' },
          { host: '', path: '/v1' },
          { host: '', path: '/v1' },
        ]);

        expect(await findApiContextPaths(t.storage.db, 'a1')).toEqual([
          { api_id: 'a1', host: '', path: '/v1' },
          { api_id: 'a1', host: 'api.example.com', path: '/v1' },
        ]);
      });

      it('finds the same path, its parents and its sub-paths on the same host, not on others', async () => {
        await replaceApiContextPaths(t.storage.db, 'same', [{ host: '', path: '/shop' }]);
        await replaceApiContextPaths(t.storage.db, 'parent', [{ host: '', path: '/a' }]);
        await replaceApiContextPaths(t.storage.db, 'child', [{ host: '', path: '/b/c/d' }]);
        await replaceApiContextPaths(t.storage.db, 'sibling', [{ host: '', path: '/b/cd' }]);
        await replaceApiContextPaths(t.storage.db, 'other-host', [{ host: 'x.example.com', path: '/shop' }]);

        const clashes = async (path: string, host = '') =>
          (await findContextPathClashes(t.storage.db, [{ host, path }])).map((r) => r.api_id);

        expect(await clashes('/shop')).toEqual(['same']);
        expect(await clashes('/a/b')).toEqual(['parent']);
        expect(await clashes('/b/c')).toEqual(['child']);
        expect(await clashes('/b')).toEqual(['child', 'sibling']);
        expect(await clashes('/shopping')).toEqual([]);
        expect(await clashes('/shop', 'x.example.com')).toEqual(['other-host']);
      });

      it('ignores the API itself and treats LIKE wildcards literally', async () => {
        await replaceApiContextPaths(t.storage.db, 'a1', [{ host: '', path: '/my_api' }]);
        await replaceApiContextPaths(t.storage.db, 'a2', [{ host: '', path: '/myXapi/v1' }]);

        expect(await findContextPathClashes(t.storage.db, [{ host: '', path: '/my_api' }], 'a1')).toEqual([]);
        expect(await findContextPathClashes(t.storage.db, [{ host: '', path: '/my_api' }])).toEqual([
          { api_id: 'a1', host: '', path: '/my_api' },
        ]);
      });

      it('finds nothing for no entrypoint', async () => {
        await replaceApiContextPaths(t.storage.db, 'a1', [{ host: '', path: '/x' }]);

        expect(await findContextPathClashes(t.storage.db, [])).toEqual([]);
      });
    });
  });
}
