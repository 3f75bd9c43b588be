import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import { call, signInNewUser, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs } from './test-support/index.js';

/**
 * The portal catalogue's search (`POST apis/_search`, `POST portal/apis/_search`, issue 14): the words
 * of the query are looked for in the name, description, labels, tags, views and metadata of the APIs
 * the caller may see, with the visibility rule of the list.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: API search`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let tag: string;
    let groupMember: TestSession;

    const names = async (session: TestSession | undefined, url: string, method: 'GET' | 'POST' = 'POST') => {
      const res = await call(t.app, session, { method, url });
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<{ name: string }[]>()
        .map((a) => a.name)
        .filter((n) => n.startsWith(tag));
    };
    const search = (session: TestSession | undefined, q: string, path = '/portal/apis/_search') =>
      names(session, `${path}?q=${encodeURIComponent(q)}`);

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      tag = `qq${Date.now().toString(36)}`;
      await t.db
        .insertInto('views')
        .values({ id: `${tag}-nordic`, name: 'Fjordland Journeys', created_at: 0, updated_at: 0 })
        .execute();
      const publicApi = await createApiAs(t, u.publisher.session, {
        name: `${tag} Weather`,
        description: 'Forecasts for sailors',
      });
      await call(t.app, u.publisher.session, {
        method: 'PUT',
        url: `/apis/${publicApi.id}`,
        payload: { visibility: 'PUBLIC', views: [`${tag}-nordic`], labels: ['oceanic'] },
      });
      await t.db
        .insertInto('metadata')
        .values({
          reference_type: 'API',
          reference_id: publicApi.id,
          key: 'team',
          name: 'Team',
          format: 'STRING',
          value: 'Albatross squad',
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      await createApiAs(t, u.publisher.session, { name: `${tag} Ledger`, description: 'Forecasts of money' });
      const groupApi = await createApiAs(t, u.publisher.session, {
        name: `${tag} Harbour`,
        description: 'Forecasts of tides',
      });
      const groupId = randomUUID();
      await t.db
        .updateTable('apis')
        .set({ groups: JSON.stringify([groupId]) })
        .where('id', '=', groupApi.id)
        .execute();
      const member = await signInNewUser(t.app, t.db, {}, { firstname: 'Gus' });
      await t.db
        .insertInto('memberships')
        .values({
          id: randomUUID(),
          member_id: member.user.id,
          member_type: 'USER',
          reference_type: 'GROUP',
          reference_id: groupId,
          role_scope: 'APPLICATION',
          role_name: 'USER',
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      groupMember = member.session;
    });
    afterAll(() => t?.close());

    it('shows anonymous callers only the PUBLIC APIs, in the list and in both searches', async () => {
      expect(await names(undefined, '/apis', 'GET')).toEqual([`${tag} Weather`]);
      expect(await search(undefined, `${tag} forecasts`)).toEqual([`${tag} Weather`]);
      expect(await search(undefined, `${tag} forecasts`, '/apis/_search')).toEqual([`${tag} Weather`]);
    });

    it('shows a signed-in user also the private APIs of its groups, the same in list and search', async () => {
      expect(await names(groupMember, '/apis', 'GET')).toEqual([`${tag} Harbour`, `${tag} Weather`]);
      expect(await search(groupMember, `${tag} forecasts`)).toEqual([`${tag} Harbour`, `${tag} Weather`]);
      expect(await search(u.outsider.session, `${tag} forecasts`)).toEqual([`${tag} Weather`]);
    });

    it('shows the owner its private APIs, and administrators all', async () => {
      const all = [`${tag} Harbour`, `${tag} Ledger`, `${tag} Weather`];
      expect(await search(u.publisher.session, `${tag} forecasts`)).toEqual(all);
      expect(await search(u.admin, `${tag} forecasts`, '/apis/_search')).toEqual(all);
    });

    it('finds an API by the name of one of its views, a label, and a metadata value', async () => {
      expect(await search(undefined, `${tag} fjordland`)).toEqual([`${tag} Weather`]);
      expect(await search(undefined, `${tag} OCEANIC`)).toEqual([`${tag} Weather`]);
      expect(await search(undefined, `${tag} albatross`)).toEqual([`${tag} Weather`]);
      expect(await search(undefined, `${tag} sailors`)).toEqual([`${tag} Weather`]);
    });

    it('needs every word, and takes LIKE wildcards and quotes in the query as plain text', async () => {
      expect(await search(u.admin, `${tag} forecasts tides`)).toEqual([`${tag} Harbour`]);
      expect(await search(u.admin, `${tag} %`)).toEqual([]);
      expect(await search(u.admin, `${tag} _`)).toEqual([]);
      expect(await search(u.admin, `${tag} ' or 1=1 --`)).toEqual([]);
    });
  });
}
