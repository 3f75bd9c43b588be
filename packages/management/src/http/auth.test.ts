import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById, updateUser } from '@portico/storage';
import { createTestDatabase, testDialects } from '@portico/storage/testing';
import type { TestDatabase } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../test-support/index.js';
import {
  call,
  createApplication,
  errorBody,
  grantRoleOn,
  login,
  signInNewUser,
  startTestApp,
} from '../test-support/index.js';
import { installSessions, permissionGuards } from './auth.js';

const XSRF_REFUSED = errorBody(403, 'Missing or wrong X-Xsrf-Token header');

for (const dialect of await testDialects()) {
  describe(`${dialect}: sessions`, () => {
    let t: TestApp;
    let alice: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      alice = await signInNewUser(t.app, t.db, {}, { firstname: 'Alice' });
    });
    afterAll(() => t?.close());

    const getUser = (headers: Record<string, string>, cookies?: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/management/user', headers, ...(cookies ? { cookies } : {}) });
    const rename = (firstname: string, headers: Record<string, string>, cookies?: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: '/management/user',
        headers,
        payload: { firstname },
        ...(cookies ? { cookies } : {}),
      });
    const cookieOf = (token: string) => ({ 'Auth-Portico': token });
    const storedFirstname = async () => (await findUserById(t.db, alice.user.id))?.firstname;

    describe('bearer session', () => {
      it('authenticates reads and writes with the Authorization header, no XSRF token needed', async () => {
        const read = await getUser({ authorization: `Bearer ${alice.session.token}` });
        expect(read.statusCode).toBe(200);
        expect(read.json()).toMatchObject({ id: alice.user.id, firstname: 'Alice' });
        expect(read.headers['x-xsrf-token']).toBeUndefined();

        const write = await rename('Alicia', { authorization: `Bearer ${alice.session.token}` });
        expect(write.statusCode).toBe(200);
        expect(await storedFirstname()).toBe('Alicia');
      });

      it('treats a token signed with another secret as no session', async () => {
        const other = await startTestApp(dialect, { options: { jwtSecret: 'another-secret' } });
        try {
          const token = (await login(other.app, 'admin', 'admin')).token;
          const res = await getUser({ authorization: `Bearer ${token}` });
          expect(res.statusCode).toBe(401);
        } finally {
          await other.close();
        }
      });
    });

    describe('cookie session', () => {
      it('authenticates reads with the Auth-Portico cookie and hands out the XSRF token', async () => {
        const res = await getUser({}, cookieOf(alice.session.token));
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ id: alice.user.id });
        expect(res.headers['x-xsrf-token']).toBe(alice.session.xsrf);
      });

      it('accepts a write carrying the X-Xsrf-Token of the session', async () => {
        const res = await rename(
          'Alix',
          { 'x-xsrf-token': alice.session.xsrf },
          cookieOf(alice.session.token),
        );
        expect(res.statusCode).toBe(200);
        expect(await storedFirstname()).toBe('Alix');
      });

      it('refuses a write without X-Xsrf-Token, and changes nothing', async () => {
        const before = await storedFirstname();
        const res = await rename('Mallory', {}, cookieOf(alice.session.token));
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(XSRF_REFUSED);
        expect(await storedFirstname()).toBe(before);
      });

      it('refuses a write with a wrong X-Xsrf-Token', async () => {
        const res = await rename('Mallory', { 'x-xsrf-token': 'guessed' }, cookieOf(alice.session.token));
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(XSRF_REFUSED);
        expect(await storedFirstname()).not.toBe('Mallory');
      });

      it('refuses the XSRF token of another session of the same user', async () => {
        const second = await login(t.app, alice.user.source_id, 'password');
        expect(second.xsrf).not.toBe(alice.session.xsrf);
        const res = await rename('Mallory', { 'x-xsrf-token': second.xsrf }, cookieOf(alice.session.token));
        expect(res.statusCode).toBe(403);
        expect(await storedFirstname()).not.toBe('Mallory');
      });

      it('treats a malformed cookie as no session', async () => {
        const res = await getUser({}, cookieOf('not-a-jwt'));
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(errorBody(401, 'You must be authenticated'));
      });
    });

    it('ends the sessions of a user who is no longer active', async () => {
      const bob = await signInNewUser(t.app, t.db);
      expect((await getUser({ authorization: `Bearer ${bob.session.token}` })).statusCode).toBe(200);
      await updateUser(t.db, bob.user.id, { status: 'ARCHIVED' });
      const res = await getUser({ authorization: `Bearer ${bob.session.token}` });
      expect(res.statusCode).toBe(401);
    });

    describe('logout', () => {
      it('clears the session cookie', async () => {
        const session = await login(t.app, alice.user.source_id, 'password');
        const res = await t.app.inject({
          method: 'POST',
          url: '/management/user/logout',
          headers: { 'x-xsrf-token': session.xsrf },
          cookies: cookieOf(session.token),
        });
        expect(res.statusCode).toBe(204);
        const cleared = res.cookies.find((c) => c.name === 'Auth-Portico');
        expect(cleared).toMatchObject({ value: '', maxAge: 0, path: '/', httpOnly: true });
      });

      it('ends the session: its token is refused afterwards, as cookie and as bearer', async () => {
        const session = await login(t.app, alice.user.source_id, 'password');
        expect((await getUser({ authorization: `Bearer ${session.token}` })).statusCode).toBe(200);
        const res = await t.app.inject({
          method: 'POST',
          url: '/management/user/logout',
          headers: { authorization: `Bearer ${session.token}` },
        });
        expect(res.statusCode).toBe(204);
        expect((await getUser({ authorization: `Bearer ${session.token}` })).statusCode).toBe(401);
        const other = await login(t.app, alice.user.source_id, 'password');
        expect((await getUser({ authorization: `Bearer ${other.token}` })).statusCode).toBe(200);
      });

      it('is refused to a cookie session without its XSRF token (no forced sign-out)', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/management/user/logout',
          cookies: cookieOf(alice.session.token),
        });
        expect(res.statusCode).toBe(403);
        expect(res.cookies.find((c) => c.name === 'Auth-Portico')).toBeUndefined();
      });
    });
  });

  describe(`${dialect}: session lifetime and secret`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(() => database?.destroy());

    it('keeps accepting the sessions of a previous start (the generated secret is stored)', async () => {
      const first = await startTestApp(dialect, { database });
      const session = await login(first.app, 'admin', 'admin');
      await first.close();
      const second = await startTestApp(dialect, { database });
      try {
        const res = await second.app.inject({
          method: 'GET',
          url: '/management/user',
          headers: { authorization: `Bearer ${session.token}` },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ username: 'admin' });
      } finally {
        await second.close();
      }
    });

    it('treats an expired session as no session', async () => {
      const app = await startTestApp(dialect, { database, options: { sessionTtlSeconds: 0 } });
      try {
        const session = await login(app.app, 'admin', 'admin');
        const res = await app.app.inject({
          method: 'GET',
          url: '/management/user',
          headers: { authorization: `Bearer ${session.token}` },
        });
        expect(res.statusCode).toBe(401);
      } finally {
        await app.close();
      }
    });
  });

  describe(`${dialect}: permission guards on routes`, () => {
    let t: TestApp;
    let applicationId: string;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      const guards = permissionGuards(t.services.permissions);
      // Test-only routes guarded like the feature routes are, under the session hook.
      await t.app.register(
        async (api) => {
          installSessions(api, t.ctx, t.services.tokens, t.services.users);
          api.put(
            '/applications/:application/definition',
            { preHandler: guards.require('application-definition-u') },
            async () => ({ saved: true }),
          );
          api.get(
            '/audit-or-settings',
            { preHandler: guards.requireAny('management-audit-r', 'portal-settings-r') },
            async () => ({ read: true }),
          );
        },
        { prefix: '/management/test' },
      );
      applicationId = (await createApplication(t.db)).id;
    });
    afterAll(() => t?.close());

    const updateDefinition = (session: SignedInUser['session'] | undefined, id = applicationId) =>
      call(t.app, session, { method: 'PUT', url: `/test/applications/${id}/definition`, payload: {} });

    it('lets an application OWNER through an application-definition-u guard', async () => {
      const owner = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, owner.user.id, 'APPLICATION', applicationId, 'OWNER');
      const res = await updateDefinition(owner.session);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ saved: true });
    });

    it('refuses an application USER with 403 naming application-definition-u (APPLICATION scope)', async () => {
      const reader = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, reader.user.id, 'APPLICATION', applicationId, 'USER');
      const res = await updateDefinition(reader.session);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(errorBody(403, 'You do not have the permission application-definition-u'));
    });

    it('answers 401 without a session and 404 for an unknown application', async () => {
      expect((await updateDefinition(undefined)).statusCode).toBe(401);
      const admin = await login(t.app, 'admin', 'admin');
      const res = await updateDefinition(admin, 'no-such-app');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody(404, 'Application [no-such-app] can not be found.'));
    });

    it('lets through a holder of any one of the permissions of requireAny, and names them all when refusing', async () => {
      const portalAdmin = await signInNewUser(t.app, t.db, { portal: 'ADMIN' });
      const ok = await call(t.app, portalAdmin.session, { method: 'GET', url: '/test/audit-or-settings' });
      expect(ok.statusCode).toBe(200);
      const plain = await signInNewUser(t.app, t.db);
      const refused = await call(t.app, plain.session, { method: 'GET', url: '/test/audit-or-settings' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(
        errorBody(403, 'You do not have the permission management-audit-r or portal-settings-r'),
      );
    });

    it('refuses a misspelt permission when the route is declared', () => {
      const guards = permissionGuards(t.services.permissions);
      expect(() => guards.require('api-planz-u')).toThrow('Unknown permission api-planz-u');
      expect(() => guards.requireAny('api-plan-u', 'portal-setting-r')).toThrow(
        'Unknown permission portal-setting-r',
      );
    });
  });
}
