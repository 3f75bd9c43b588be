import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { upsertMembership } from '../memberships/memberships.repository.js';
import { insertUser } from '../users/users.repository.js';
import {
  deleteApi,
  findApiById,
  findApiContextPaths,
  findApiIdsInGroups,
  findApiListJson,
  findApisByIds,
  findContextPathClashes,
  insertApi,
  replaceApiContextPaths,
  updateApi,
} from './apis.repository.js';
import type { NewApiRow } from './apis.table.js';

const NOW = 1_790_000_000_000;

function api(id: string, changes: Partial<NewApiRow> = {}): NewApiRow {
  return {
    id,
    name: `API ${id}`,
    version: '1.0',
    context_path: `/${id}`,
    definition: '{}',
    state: 'STOPPED',
    visibility: 'PRIVATE',
    lifecycle_state: 'CREATED',
    labels: '[]',
    views: '[]',
    groups: '[]',
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

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

    describe('findApiListJson', () => {
      beforeEach(async () => {
        await t.storage.db.deleteFrom('memberships').execute();
        await t.storage.db.deleteFrom('users').execute();
        await t.storage.db.deleteFrom('top_apis').execute();
      });

      interface Item {
        id: string;
        name: string;
        manageable: boolean;
        [key: string]: unknown;
      }
      const OPTIONS = { manageable: 'all' as const, pictureUrlPrefix: 'http://h/management/apis/' };
      const list = async (filter: Parameters<typeof findApiListJson>[1] = {}, options = OPTIONS) =>
        JSON.parse(await findApiListJson(t.storage.db, filter, options)) as Item[];
      const ids = async (filter: Parameters<typeof findApiListJson>[1] = {}) =>
        (await list(filter)).map((r) => r.id);
      const member = (memberId: string, apiId: string, role: string) =>
        upsertMembership(t.storage.db, {
          id: `${memberId}-${apiId}`,
          member_id: memberId,
          member_type: 'USER',
          reference_type: 'API',
          reference_id: apiId,
          role_scope: 'API',
          role_name: role,
          created_at: NOW,
          updated_at: NOW,
        });

      it('lists every API by name as JSON, with its primary owner, without definition nor picture', async () => {
        await insertApi(
          t.storage.db,
          api('b', {
            name: 'beta',
            description: 'Says "hi"',
            picture: 'data:image/png;base64,AA',
            labels: '["x"]',
            tags: '["edge"]',
            deployed_at: NOW + 3,
          }),
        );
        await insertApi(t.storage.db, api('a', { name: 'Alpha' }));
        await insertUser(t.storage.db, {
          id: 'u1',
          source: 'portico',
          source_id: 'alice',
          email: 'alice@example.test',
          firstname: 'Alice',
          lastname: 'Liddell',
          status: 'ACTIVE',
          login_count: 0,
          created_at: NOW,
          updated_at: NOW,
        });
        await member('u1', 'b', 'PRIMARY_OWNER');

        const items = await list();

        expect(items).toEqual([
          {
            id: 'a',
            name: 'Alpha',
            version: '1.0',
            description: null,
            context_path: '/a',
            visibility: 'PRIVATE',
            state: 'STOPPED',
            lifecycle_state: 'CREATED',
            tags: [],
            labels: [],
            views: [],
            groups: [],
            owner: null,
            picture_url: `http://h/management/apis/a/picture?v=${NOW}`,
            has_picture: false,
            manageable: true,
            deployed_at: null,
            created_at: NOW,
            updated_at: NOW,
          },
          expect.objectContaining({
            id: 'b',
            name: 'beta',
            description: 'Says "hi"',
            labels: ['x'],
            tags: ['edge'],
            has_picture: true,
            deployed_at: NOW + 3,
            owner: { id: 'u1', username: 'alice', displayName: 'Alice Liddell', email: 'alice@example.test' },
          }),
        ]);
      });

      it('names an owner without first and last name by its username', async () => {
        await insertApi(t.storage.db, api('a'));
        await insertUser(t.storage.db, {
          id: 'u2',
          source: 'portico',
          source_id: 'bob',
          email: null,
          status: 'ACTIVE',
          login_count: 0,
          created_at: NOW,
          updated_at: NOW,
        });
        await member('u2', 'a', 'PRIMARY_OWNER');

        expect((await list())[0]!.owner).toEqual({
          id: 'u2',
          username: 'bob',
          displayName: 'bob',
          email: null,
        });
      });

      it("gives the owner's username and email to administrators only: others get its id and name", async () => {
        await insertApi(t.storage.db, api('a', { visibility: 'PUBLIC' }));
        await insertUser(t.storage.db, {
          id: 'u3',
          source: 'portico',
          source_id: 'carol@example.test',
          email: 'carol@example.test',
          firstname: 'Carol',
          lastname: 'Owner',
          status: 'ACTIVE',
          login_count: 0,
          created_at: NOW,
          updated_at: NOW,
        });
        await member('u3', 'a', 'PRIMARY_OWNER');
        for (const manageable of ['none' as const, { userId: 'u4', groupIds: [] }]) {
          const json = await findApiListJson(t.storage.db, {}, { ...OPTIONS, manageable });
          expect(json).not.toContain('carol@');
          expect((JSON.parse(json) as Item[])[0]!.owner).toEqual({ id: 'u3', displayName: 'Carol Owner' });
        }
        expect((await list())[0]!.owner).toEqual({
          id: 'u3',
          username: 'carol@example.test',
          displayName: 'Carol Owner',
          email: 'carol@example.test',
        });
      });

      it('keeps for a user the PUBLIC APIs, those the user is a member of, and those of its groups', async () => {
        await insertApi(t.storage.db, api('public', { visibility: 'PUBLIC' }));
        await insertApi(t.storage.db, api('member'));
        await insertApi(t.storage.db, api('group', { groups: '["g1"]' }));
        await insertApi(t.storage.db, api('hidden', { groups: '["g2"]' }));
        await member('u1', 'member', 'USER');

        const seen = await ids({ visibleTo: { userId: 'u1', groupIds: ['g1'] } });
        const anonymous = await ids({ visibleTo: { userId: null, groupIds: [] } });

        expect(seen.sort()).toEqual(['group', 'member', 'public']);
        expect(anonymous).toEqual(['public']);
      });

      it('flags as manageable the APIs the user is a member of, directly or through a group with an API role', async () => {
        await insertApi(t.storage.db, api('public', { visibility: 'PUBLIC' }));
        await insertApi(t.storage.db, api('member'));
        await insertApi(t.storage.db, api('group', { groups: '["g1"]' }));
        await member('u1', 'member', 'USER');

        const managed = async (
          manageable: typeof OPTIONS.manageable | 'none' | { userId: string; groupIds: string[] },
        ) =>
          Object.fromEntries(
            (await list({}, { ...OPTIONS, manageable: manageable as typeof OPTIONS.manageable })).map((r) => [
              r.id,
              r.manageable,
            ]),
          );

        expect(await managed({ userId: 'u1', groupIds: ['g1'] })).toEqual({
          group: true,
          member: true,
          public: false,
        });
        expect(await managed({ userId: 'u1', groupIds: [] })).toEqual({
          group: false,
          member: true,
          public: false,
        });
        expect(await managed('none')).toEqual({ group: false, member: false, public: false });
        expect(await managed('all')).toEqual({ group: true, member: true, public: true });
      });

      it('filters by view and group', async () => {
        await insertApi(t.storage.db, api('a1', { views: '["sales"]', groups: '["g1"]' }));
        await insertApi(t.storage.db, api('a2', { views: '["sales_x"]', groups: '["g10"]' }));
        await insertApi(t.storage.db, api('a3'));

        expect(await ids({ view: 'sales' })).toEqual(['a1']);
        expect(await ids({ group: 'g1' })).toEqual(['a1']);
      });

      it('lists the top APIs only, in their order', async () => {
        for (const id of ['a1', 'a2', 'a3']) await insertApi(t.storage.db, api(id));
        await t.storage.db
          .insertInto('top_apis')
          .values([
            { api_id: 'a3', order: 0 },
            { api_id: 'a1', order: 1 },
          ])
          .execute();

        expect(await ids({ top: true })).toEqual(['a3', 'a1']);
      });

      it('searches every word in name, version, description, context path, labels and tags, ignoring case', async () => {
        await insertApi(t.storage.db, api('a1', { name: 'Weather', description: 'Forecasts by city' }));
        await insertApi(t.storage.db, api('a2', { name: 'Stocks', labels: '["Finance"]' }));
        await insertApi(
          t.storage.db,
          api('a3', { name: 'Maps', context_path: '/geo_maps', tags: '["Edge"]' }),
        );

        expect(await ids({ text: 'weather CITY' })).toEqual(['a1']);
        expect(await ids({ text: 'finance' })).toEqual(['a2']);
        expect(await ids({ text: 'edge' })).toEqual(['a3']);
        expect(await ids({ text: 'geo_' })).toEqual(['a3']);
        expect(await ids({ text: '%' })).toEqual([]);
        expect(await ids({ text: 'weather stocks' })).toEqual([]);
      });

      it('sorts by name or context path, both ways', async () => {
        await insertApi(t.storage.db, api('a1', { name: 'b', context_path: '/z' }));
        await insertApi(t.storage.db, api('a2', { name: 'A', context_path: '/y' }));
        await insertApi(t.storage.db, api('a3', { name: 'c', context_path: '/x' }));

        expect(await ids({ order: '-name' })).toEqual(['a3', 'a1', 'a2']);
        expect(await ids({ order: 'context_path' })).toEqual(['a3', 'a2', 'a1']);
        expect(await ids({ order: '-context_path' })).toEqual(['a1', 'a2', 'a3']);
      });

      it('answers an empty JSON array when nothing matches', async () => {
        expect(await findApiListJson(t.storage.db, { view: 'none' }, OPTIONS)).toBe('[]');
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
