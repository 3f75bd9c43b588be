import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById, findUserBySource } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  basic,
  call,
  createApi,
  createApplication,
  createGroup,
  createNotification,
  createPlan,
  createSubscription,
  createTag,
  createUser,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size = 64) => Buffer.concat([PNG_MAGIC, Buffer.alloc(size - PNG_MAGIC.length, 7)]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

for (const dialect of await testDialects()) {
  describe(`${dialect}: the current user (user/*)`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    const auditsOf = (userId: string, event: string) =>
      t.db
        .selectFrom('audits')
        .selectAll()
        .where('event', '=', event)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();

    describe('POST user/login', () => {
      const signIn = (authorization: string | undefined, remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/management/user/login',
          headers: authorization === undefined ? {} : { authorization },
          remoteAddress,
        });

      it('answers a bearer token, sets the HttpOnly session cookie and the XSRF header', async () => {
        const user = await createUser(t.db, { password: 's3cret-pass' });
        const res = await signIn(basic(user.source_id, 's3cret-pass'), '198.51.100.1');
        expect(res.statusCode).toBe(200);
        const body = res.json<{ type: string; token: string }>();
        expect(body).toEqual({ type: 'BEARER', token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
        expect(res.cookies.find((c) => c.name === 'Auth-Portico')).toMatchObject({
          value: body.token,
          httpOnly: true,
          path: '/',
          sameSite: 'Lax',
          maxAge: 7 * 24 * 3600,
        });
        expect(res.headers['x-xsrf-token']).toEqual(expect.any(String));

        const me = await call(t.app, { token: body.token, xsrf: '' }, { method: 'GET', url: '/user' });
        expect(me.json()).toMatchObject({ id: user.id, username: user.source_id });
      });

      it('counts the sign-in, keeps its time and audits USER_CONNECTED', async () => {
        const user = await createUser(t.db);
        const before = t.clock.peek();
        await login(t.app, user.source_id, 'password');
        const stored = await findUserById(t.db, user.id);
        expect(stored?.login_count).toBe(1);
        expect(stored?.last_connection_at).toBeGreaterThanOrEqual(before);
        const audits = await auditsOf(user.id, 'USER_CONNECTED');
        expect(audits).toHaveLength(1);
        expect(JSON.parse(audits[0]!.properties)).toEqual({ USER: user.id });
      });

      it('accepts the username whatever its case', async () => {
        const user = await createUser(t.db, { username: 'CamelCase-User' });
        const res = await signIn(basic('camelcase-user', 'password'), '198.51.100.2');
        expect(res.statusCode).toBe(200);
        expect((await findUserById(t.db, user.id))?.login_count).toBe(1);
      });

      it('refuses a wrong password with 401 "Wrong user or password" and no cookie', async () => {
        const user = await createUser(t.db);
        const res = await signIn(basic(user.source_id, 'wrong'), '198.51.100.3');
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(errorBody(401, 'Wrong user or password'));
        expect(res.cookies).toEqual([]);
        expect((await findUserById(t.db, user.id))?.login_count).toBe(0);
      });

      it('answers an unknown user exactly like a wrong password', async () => {
        const res = await signIn(basic('nobody-here', 'password'), '198.51.100.4');
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(errorBody(401, 'Wrong user or password'));
      });

      it('refuses a user whose registration is not finished', async () => {
        const user = await createUser(t.db, { status: 'PENDING' });
        const res = await signIn(basic(user.source_id, 'password'), '198.51.100.5');
        expect(res.statusCode).toBe(401);
      });

      it.each([
        ['no Authorization header', undefined],
        ['a bearer header', 'Bearer abc'],
        ['a Basic header that is not base64', 'Basic !!!'],
        ['a Basic header without a colon', `Basic ${Buffer.from('admin').toString('base64')}`],
      ])('refuses %s with 401', async (_name, header) => {
        const res = await signIn(header, '198.51.100.6');
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(errorBody(401, 'Wrong user or password'));
        expect(res.cookies).toEqual([]);
      });

      it('refuses even the right password after five failures on the account, from any address; other accounts still sign in', async () => {
        const user = await createUser(t.db);
        const other = await createUser(t.db);
        for (let i = 0; i < 5; i++) {
          expect((await signIn(basic(user.source_id, `wrong-${i}`), '198.51.100.7')).statusCode).toBe(401);
        }
        for (const address of ['198.51.100.7', '198.51.100.8']) {
          const blocked = await signIn(basic(user.source_id, 'password'), address);
          expect(blocked.statusCode).toBe(429);
          expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
          expect(blocked.json()).toEqual(
            errorBody(429, /^Too many failed sign-in attempts, try again in \d+ seconds?$/),
          );
        }
        expect((await signIn(basic(other.source_id, 'password'), '198.51.100.7')).statusCode).toBe(200);
      });
    });

    describe('GET user', () => {
      it("lists the administrator's roles and permissions in string form", async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/user' });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ username: 'admin', source: 'portico', status: 'ACTIVE' });
        expect(body.roles.map((r: { scope: string; name: string }) => `${r.scope}:${r.name}`)).toEqual([
          'MANAGEMENT:ADMIN',
          'PORTAL:ADMIN',
        ]);
        expect(body.permissions).toEqual(
          expect.arrayContaining([
            'management-api-c',
            'management-audit-r',
            'management-user-d',
            'portal-settings-r',
            'portal-settings-u',
          ]),
        );
        expect(body).not.toHaveProperty('password');
        expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      });

      it('gives a user without membership the default roles of MANAGEMENT and PORTAL', async () => {
        const { session } = await signInNewUser(t.app, t.db);
        const body = (await call(t.app, session, { method: 'GET', url: '/user' })).json();
        expect(body.roles.map((r: { scope: string; name: string }) => `${r.scope}:${r.name}`)).toEqual([
          'MANAGEMENT:USER',
          'PORTAL:USER',
        ]);
        expect(body.permissions).toEqual(
          expect.arrayContaining(['management-tag-r', 'portal-application-c']),
        );
        expect(body.permissions).not.toContain('management-api-c');
        expect(body.permissions).not.toContain('portal-settings-r');
      });
    });

    describe('PUT user', () => {
      let me: SignedInUser;
      beforeAll(async () => {
        me = await signInNewUser(t.app, t.db, {}, { firstname: 'Grace', lastname: 'Hopper' });
      });
      const put = (payload: unknown, headers: Record<string, string> = {}) =>
        call(t.app, me.session, { method: 'PUT', url: '/user', payload: payload as object, headers });
      const stored = async () => (await findUserById(t.db, me.user.id))!;

      it('updates names and email with the current ETag, answers a new ETag, and audits the patch', async () => {
        const etag = (await call(t.app, me.session, { method: 'GET', url: '/user' })).headers.etag as string;
        const res = await put(
          { firstname: 'Amazing', lastname: 'Grace', email: 'grace@navy.test' },
          { 'if-match': etag },
        );
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          firstname: 'Amazing',
          lastname: 'Grace',
          email: 'grace@navy.test',
          displayName: 'Amazing Grace',
        });
        expect(res.headers.etag).not.toBe(etag);
        expect(await stored()).toMatchObject({
          firstname: 'Amazing',
          lastname: 'Grace',
          email: 'grace@navy.test',
        });

        const [audit] = await auditsOf(me.user.id, 'USER_UPDATED');
        expect(audit).toMatchObject({ reference_type: 'ENVIRONMENT', reference_id: 'DEFAULT' });
        expect(JSON.parse(audit!.patch!)).toEqual(
          expect.arrayContaining([
            { op: 'replace', path: '/firstname', value: 'Amazing' },
            { op: 'replace', path: '/lastname', value: 'Grace' },
          ]),
        );
        expect(audit!.patch).not.toContain('$2'); // no bcrypt hash in the trail

        const stale = await put({ firstname: 'Again' }, { 'if-match': etag });
        expect(stale.statusCode).toBe(412);
        expect((await stored()).firstname).toBe('Amazing');
      });

      it('stores a PNG picture, served back by user/avatar', async () => {
        const bytes = png();
        const res = await put({ picture: dataUrl('image/png', bytes) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ hasPicture: true });
        const avatar = await call(t.app, me.session, { method: 'GET', url: '/user/avatar' });
        expect(avatar.statusCode).toBe(200);
        expect(avatar.headers['content-type']).toBe('image/png');
        expect(avatar.rawPayload.equals(bytes)).toBe(true);
      });

      it('removes the picture with null; the avatar becomes the initials', async () => {
        await put({ picture: dataUrl('image/png', png()) });
        const res = await put({ picture: null });
        expect(res.json()).toMatchObject({ hasPicture: false });
        expect((await stored()).picture).toBeNull();
        const avatar = await call(t.app, me.session, { method: 'GET', url: '/user/avatar' });
        expect(avatar.headers['content-type']).toBe('image/svg+xml');
        expect(avatar.body).toContain('>AG</text>');
      });

      describe('refuses, naming the field and changing nothing', () => {
        it.each([
          [
            'a picture larger than 1 MB',
            dataUrl('image/png', png(1024 * 1024 + 1)),
            /image is larger than 1 MB/,
          ],
          [
            'a picture beyond the size limit of the body schema',
            `data:image/png;base64,${'A'.repeat(1_500_004)}`,
            /./,
          ],
          ['a text file', dataUrl('text/plain', Buffer.from('hello')), /must be a base64 image data URL/],
          [
            'an SVG image',
            dataUrl('image/svg+xml', Buffer.from('<svg/>')),
            /must be a PNG, JPEG, GIF or WebP image/,
          ],
          [
            'bytes that are not the declared type',
            dataUrl('image/png', Buffer.from('GIF89a....')),
            /content is not the declared image type/,
          ],
          ['a URL instead of a data URL', 'https://example.test/me.png', /must be a base64 image data URL/],
        ])('%s', async (_name, picture, reason) => {
          const before = await stored();
          const res = await put({ picture, firstname: 'Ignored' });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('picture', reason));
          expect(await stored()).toEqual(before);
        });

        it('a change of username', async () => {
          const before = await stored();
          const res = await put({ username: 'someone-else', firstname: 'Ignored' });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('username', 'the username can not be changed'));
          expect(await stored()).toEqual(before);
          expect(await findUserBySource(t.db, 'portico', 'someone-else')).toBeUndefined();
        });

        it('an invalid email', async () => {
          const before = await stored();
          const res = await put({ email: 'grace at navy' });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody('email'));
          expect(await stored()).toEqual(before);
        });
      });

      it('accepts the unchanged username', async () => {
        const res = await put({ username: me.user.source_id, lastname: 'Hopper' });
        expect(res.statusCode).toBe(200);
        expect((await stored()).lastname).toBe('Hopper');
      });
    });

    describe('GET user/tags', () => {
      it('lists unrestricted tags and those restricted to the user’s groups; administrators get all', async () => {
        const group = await createGroup(t.db);
        const otherGroup = await createGroup(t.db);
        await createTag(t.db, 'tag-public');
        await createTag(t.db, 'tag-mine', [group.id]);
        await createTag(t.db, 'tag-theirs', [otherGroup.id]);
        const me = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, me.user.id, group.id, 'API', 'USER');

        const mine = await call(t.app, me.session, { method: 'GET', url: '/user/tags' });
        expect(mine.json()).toEqual(['tag-mine', 'tag-public']);
        const all = await call(t.app, admin, { method: 'GET', url: '/user/tags' });
        expect(all.json()).toEqual(['tag-mine', 'tag-public', 'tag-theirs']);
      });
    });

    describe('GET user/tasks', () => {
      let validator: SignedInUser;
      const pendingIds: Record<string, string> = {};

      beforeAll(async () => {
        validator = await signInNewUser(t.app, t.db);
        const group = await createGroup(t.db);
        const application = await createApplication(t.db, { name: 'Weather app' });
        const direct = await createApi(t.db, { name: 'direct-owner' });
        const readOnly = await createApi(t.db, { name: 'reviewer-only' });
        const viaGroup = await createApi(t.db, { name: 'via-group', groups: [group.id] });
        const unrelated = await createApi(t.db, { name: 'unrelated' });
        await grantRoleOn(t.db, validator.user.id, 'API', direct.id, 'OWNER');
        await grantRoleOn(t.db, validator.user.id, 'API', readOnly.id, 'REVIEWER');
        await grantRoleThroughGroup(t.db, validator.user.id, group.id, 'API', 'OWNER');
        let at = Date.UTC(2025, 0, 1);
        for (const api of [direct, readOnly, viaGroup, unrelated]) {
          const plan = await createPlan(t.db, api.id, { name: `Gold of ${api.name}` });
          const pending = await createSubscription(t.db, plan, application, { created_at: at++ });
          pendingIds[api.name] = pending.id;
          await createSubscription(t.db, plan, application, { status: 'ACCEPTED', created_at: at++ });
        }
      });

      it('shows the pending subscriptions of the APIs where the user may validate them, directly or via a group', async () => {
        const res = await call(t.app, validator.session, { method: 'GET', url: '/user/tasks' });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.data.map((task: { data: { id: string } }) => task.data.id)).toEqual([
          pendingIds['direct-owner'],
          pendingIds['via-group'],
        ]);
        expect(body.data[0]).toMatchObject({
          type: 'SUBSCRIPTION_APPROVAL',
          data: { request: 'please', application: expect.any(String), plan: expect.any(String) },
        });
        expect(body.page).toMatchObject({ current: 1, total_elements: 2 });
        const firstApi = body.data[0].data.api as string;
        expect(body.metadata[firstApi]).toEqual({ name: 'direct-owner', version: '1.0' });
        expect(body.metadata[body.data[0].data.application]).toEqual({ name: 'Weather app' });
        expect(body.metadata[body.data[0].data.plan]).toMatchObject({ name: 'Gold of direct-owner' });
      });

      it('pages the tasks', async () => {
        const res = await call(t.app, validator.session, { method: 'GET', url: '/user/tasks?page=2&size=1' });
        const body = res.json();
        expect(body.data.map((task: { data: { id: string } }) => task.data.id)).toEqual([
          pendingIds['via-group'],
        ]);
        expect(body.page).toEqual({ current: 2, size: 1, per_page: 1, total_pages: 2, total_elements: 2 });
      });

      it('shows every pending subscription to an administrator', async () => {
        const body = (await call(t.app, admin, { method: 'GET', url: '/user/tasks?size=100' })).json();
        expect(body.data.map((task: { data: { id: string } }) => task.data.id)).toEqual(
          Object.values(pendingIds),
        );
        expect(body.page.total_elements).toBe(4);
      });

      it('shows nothing to a user without api-subscription-u anywhere', async () => {
        const nobody = await signInNewUser(t.app, t.db);
        const body = (await call(t.app, nobody.session, { method: 'GET', url: '/user/tasks' })).json();
        expect(body.data).toEqual([]);
        expect(body.page.total_elements).toBe(0);
      });
    });

    describe('user/notifications', () => {
      let me: SignedInUser;
      let someoneElse: SignedInUser;
      beforeAll(async () => {
        me = await signInNewUser(t.app, t.db);
        someoneElse = await signInNewUser(t.app, t.db);
      });
      const count = async (userId: string) =>
        (
          await t.db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n;

      it('lists only the own notifications, newest first', async () => {
        const older = await createNotification(t.db, me.user.id, { title: 'older', created_at: 1000 });
        const newer = await createNotification(t.db, me.user.id, { title: 'newer', created_at: 2000 });
        await createNotification(t.db, someoneElse.user.id, { title: 'not mine' });
        const res = await call(t.app, me.session, { method: 'GET', url: '/user/notifications' });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.data).toEqual([
          { id: newer.id, title: 'newer', message: newer.message, created_at: 2000 },
          { id: older.id, title: 'older', message: older.message, created_at: 1000 },
        ]);
        expect(body.page.total_elements).toBe(2);
      });

      it('deletes one own notification', async () => {
        const n = await createNotification(t.db, me.user.id);
        const before = Number(await count(me.user.id));
        const res = await call(t.app, me.session, { method: 'DELETE', url: `/user/notifications/${n.id}` });
        expect(res.statusCode).toBe(204);
        expect(Number(await count(me.user.id))).toBe(before - 1);
        const left = await t.db.selectFrom('notifications').select('id').where('id', '=', n.id).execute();
        expect(left).toEqual([]);
      });

      it("answers 404 for another user's notification and keeps it", async () => {
        const theirs = await createNotification(t.db, someoneElse.user.id);
        const res = await call(t.app, me.session, {
          method: 'DELETE',
          url: `/user/notifications/${theirs.id}`,
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, `Notification [${theirs.id}] can not be found.`));
        const kept = await t.db
          .selectFrom('notifications')
          .select('id')
          .where('id', '=', theirs.id)
          .execute();
        expect(kept).toHaveLength(1);
      });

      it('deletes all own notifications, and only those', async () => {
        await createNotification(t.db, me.user.id);
        const theirsBefore = Number(await count(someoneElse.user.id));
        expect(theirsBefore).toBeGreaterThan(0);
        const res = await call(t.app, me.session, { method: 'DELETE', url: '/user/notifications' });
        expect(res.statusCode).toBe(204);
        expect(Number(await count(me.user.id))).toBe(0);
        expect(Number(await count(someoneElse.user.id))).toBe(theirsBefore);
      });
    });

    it('needs a session for every user/* route but login and logout', async () => {
      for (const [method, url] of [
        ['GET', '/user'],
        ['PUT', '/user'],
        ['GET', '/user/avatar'],
        ['GET', '/user/tags'],
        ['GET', '/user/tasks'],
        ['GET', '/user/notifications'],
        ['DELETE', '/user/notifications'],
        ['DELETE', '/user/notifications/some-id'],
      ] as const) {
        const res = await call(t.app, undefined, {
          method,
          url,
          ...(method === 'PUT' ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });
  });
}
