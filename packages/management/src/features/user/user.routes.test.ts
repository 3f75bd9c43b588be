import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import { basic, call, createUser, errorBody, login, signInNewUser } from '../../test-support/index.js';
import type { UserWorld } from './test-support/user-calls.js';
import { auditsOfUser, startUserWorld } from './test-support/user-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: the current user (user/*)`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      ({ t, admin } = await startUserWorld(dialect));
    });
    afterAll(() => t?.close());

    const auditsOf = auditsOfUser((): UserWorld => ({ t, admin }));

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
