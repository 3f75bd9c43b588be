import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { upsertMembership } from '../memberships/memberships.repository.js';
import { insertUser } from '../users/users.repository.js';
import { findApiListJson, insertApi, type ApiListOptions } from './apis.repository.js';
import { NOW, api } from './test-support.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: apis repository: findApiListJson`, () => {
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
      const OPTIONS: ApiListOptions = { manageable: 'all', pictureUrlPrefix: 'http://h/management/apis/' };
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

      it('adds the rate (to one decimal, half up) and the number of ratings when asked', async () => {
        await t.storage.db.deleteFrom('ratings').execute();
        for (const id of ['a1', 'a2', 'a3']) await insertApi(t.storage.db, api(id, { name: id }));
        const rates: [string, number][] = [
          ...[5, 4, 4, 4].map((r): [string, number] => ['a1', r]),
          ...[3, 4].map((r): [string, number] => ['a2', r]),
        ];
        await t.storage.db
          .insertInto('ratings')
          .values(
            rates.map(([api_id, rate], i) => ({
              ...{ id: `r${i}`, api_id, user_id: `u${i}`, rate, title: null, comment: null },
              ...{ created_at: NOW, updated_at: NOW },
            })),
          )
          .execute();
        const stars = async (ratings?: boolean) =>
          (await list({}, { ...OPTIONS, ratings })).map(({ id, rate, numberOfRatings }) => ({
            id,
            rate,
            numberOfRatings,
          }));
        expect(await stars(true)).toEqual([
          { id: 'a1', rate: 4.3, numberOfRatings: 4 },
          { id: 'a2', rate: 3.5, numberOfRatings: 2 },
          { id: 'a3', rate: null, numberOfRatings: 0 },
        ]);
        expect((await stars()).every((a) => a.rate === undefined && a.numberOfRatings === undefined)).toBe(
          true,
        );
        await t.storage.db.deleteFrom('ratings').execute();
      });

      it('answers an empty JSON array when nothing matches', async () => {
        expect(await findApiListJson(t.storage.db, { view: 'none' }, OPTIONS)).toBe('[]');
      });
    });
  });
}
