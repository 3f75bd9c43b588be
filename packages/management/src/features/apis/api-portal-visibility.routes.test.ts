import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createGroup,
  createPlan,
  grantRoleOn,
  grantRoleThroughGroup,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

/**
 * Who sees which API in the portal (portal-and-platform.md 2, issue 14 item 2): published PUBLIC APIs for
 * everybody; PRIVATE ones, and PUBLIC ones withdrawn (UNPUBLISHED, ARCHIVED), only for their members
 * (directly or through one of their groups) and administrators; in lists, search, the view counts and
 * direct links alike.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: portal visibility of APIs`, () => {
    let t: TestApp;
    let admin: TestSession;
    let member: SignedInUser;
    let groupie: SignedInUser;
    let stranger: SignedInUser;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: { schedulerTickMs: 0 } });
      admin = await login(t.app, 'admin', 'admin');
      [member, groupie, stranger] = [
        await signInNewUser(t.app, t.db),
        await signInNewUser(t.app, t.db),
        await signInNewUser(t.app, t.db),
      ];
      const view = await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/views',
        payload: { name: 'Geo' },
      });
      expect(view.statusCode).toBe(200);
      const group = await createGroup(t.db);
      const api = async (key: string, visibility: string, lifecycle_state: string, groups: string[] = []) => {
        const row = await createApi(t.db, {
          name: `zeta-${key}`,
          visibility,
          lifecycle_state,
          groups,
          views: JSON.stringify(['geo']),
        });
        ids[key] = row.id;
        return row;
      };
      await api('published', 'PUBLIC', 'PUBLISHED');
      await api('created', 'PUBLIC', 'CREATED');
      await api('unpublished', 'PUBLIC', 'UNPUBLISHED');
      await api('archived', 'PUBLIC', 'ARCHIVED');
      await api('private', 'PRIVATE', 'PUBLISHED');
      await api('grouped', 'PRIVATE', 'PUBLISHED', [group.id]);
      await grantRoleOn(t.db, member.user.id, 'API', ids.unpublished!, 'USER');
      await grantRoleOn(t.db, member.user.id, 'API', ids.private!, 'USER');
      await grantRoleThroughGroup(t.db, groupie.user.id, group.id, 'APPLICATION', 'USER');
      for (const key of ['published', 'unpublished']) {
        await createPlan(t.db, ids[key]!, { security: 'KEY_LESS' });
        const top = await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/top-apis',
          payload: { api: ids[key] },
        });
        expect(top.statusCode, top.body).toBe(200);
      }
    });
    afterAll(() => t?.close());

    const keyOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
    const listed = async (session: TestSession | undefined, url: string, method: 'GET' | 'POST' = 'GET') => {
      const res = await call(t.app, session, { method, url });
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<{ id: string }[]>()
        .map((a) => keyOf(a.id))
        .filter((k) => k in ids)
        .sort();
    };

    it('lists and searches only the APIs the caller may see', async () => {
      const cases: [TestSession | undefined, string[]][] = [
        [undefined, ['created', 'published']],
        [stranger.session, ['created', 'published']],
        [member.session, ['created', 'private', 'published', 'unpublished']],
        [groupie.session, ['created', 'grouped', 'published']],
        [admin, ['archived', 'created', 'grouped', 'private', 'published', 'unpublished']],
      ];
      for (const [session, expected] of cases) {
        expect(await listed(session, '/apis')).toEqual(expected);
        expect(await listed(session, '/apis?view=geo')).toEqual(expected);
        expect(await listed(session, '/apis/_search?q=zeta', 'POST')).toEqual(expected);
        expect(await listed(session, '/portal/apis/_search?q=zeta', 'POST')).toEqual(expected);
      }
      expect(await listed(undefined, '/apis?top=true')).toEqual(['published']);
      // The top APIs (the home page's cards) carry their stars.
      await t.db
        .insertInto('ratings')
        .values(
          [4, 5].map((rate, i) => ({
            ...{ id: `r-${rate}`, api_id: ids.published!, user_id: [member, groupie][i]!.user.id, rate },
            ...{ title: null, comment: null, created_at: 0, updated_at: 0 },
          })),
        )
        .execute();
      const top = (await call(t.app, undefined, { method: 'GET', url: '/apis?top=true' })).json<object[]>();
      expect(top).toEqual([expect.objectContaining({ id: ids.published, rate: 4.5, numberOfRatings: 2 })]);
      expect(await listed(member.session, '/apis?top=true')).toEqual(['published', 'unpublished']);
    });

    it('carries the stars in every list and search while rating is enabled, none while disabled', async () => {
      const stars = async (url: string, method: 'GET' | 'POST' = 'GET') => {
        const res = await call(t.app, undefined, { method, url });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ id: string; rate?: number | null; numberOfRatings?: number }[]>().map((a) => ({
          key: keyOf(a.id),
          rate: a.rate,
          numberOfRatings: a.numberOfRatings,
        }));
      };
      const rated = [
        { key: 'created', rate: null, numberOfRatings: 0 },
        { key: 'published', rate: 4.5, numberOfRatings: 2 },
      ];
      expect(await stars('/apis')).toEqual(rated);
      expect(await stars('/apis?view=geo')).toEqual(rated);
      expect(await stars('/apis/_search?q=zeta', 'POST')).toEqual(rated);
      expect(await stars('/portal/apis/_search?q=zeta', 'POST')).toEqual(rated);
      const portal = (rating: object) =>
        call(t.app, admin, { method: 'POST', url: '/portal', payload: { portal: { rating } } });
      expect((await portal({ enabled: false })).statusCode).toBe(200);
      try {
        const unrated = rated.map(({ key }) => ({ key, rate: undefined, numberOfRatings: undefined }));
        expect(await stars('/apis')).toEqual(unrated);
        expect(await stars('/portal/apis/_search?q=zeta', 'POST')).toEqual(unrated);
        expect(await stars('/apis?top=true')).toEqual([unrated[1]]);
      } finally {
        expect((await portal({ enabled: true })).statusCode).toBe(200);
      }
    });

    it('counts in views only the APIs the caller may see', async () => {
      const count = async (session: TestSession | undefined) => {
        const views = (await call(t.app, session, { method: 'GET', url: '/configuration/views' })).json<
          { id: string; totalApis: number }[]
        >();
        const one = (await call(t.app, session, { method: 'GET', url: '/configuration/views/geo' })).json<{
          totalApis: number;
        }>();
        return [views.find((v) => v.id === 'geo')!.totalApis, one.totalApis];
      };
      expect(await count(undefined)).toEqual([2, 2]);
      expect(await count(stranger.session)).toEqual([2, 2]);
      expect(await count(member.session)).toEqual([4, 4]);
      expect(await count(groupie.session)).toEqual([3, 3]);
      expect(await count(admin)).toEqual([6, 6]);
    });

    it('opens a direct link, its plans and its headers only for those who may see the API', async () => {
      const status = async (session: TestSession | undefined, key: string, tail = '') =>
        (await call(t.app, session, { method: 'GET', url: `/apis/${ids[key]}${tail}` })).statusCode;
      for (const tail of ['', '/plans?status=published', '/headers']) {
        expect(await status(undefined, 'published', tail)).toBe(200);
        expect(await status(undefined, 'unpublished', tail)).toBe(401);
        expect(await status(stranger.session, 'unpublished', tail)).toBe(403);
        expect(await status(stranger.session, 'archived', tail)).toBe(403);
        expect(await status(stranger.session, 'private', tail)).toBe(403);
        expect(await status(member.session, 'unpublished', tail)).toBe(200);
        expect(await status(admin, 'archived', tail)).toBe(200);
      }
      expect(await status(groupie.session, 'grouped')).toBe(200);
      expect(await status(groupie.session, 'private')).toBe(403);
    });
  });
}
