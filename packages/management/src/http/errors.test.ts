import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRecentMails, findUserByEmail, findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../test-support/index.js';
import {
  basic,
  call,
  errorBody,
  invalidFieldBody,
  login,
  memoryLog,
  signInNewUser,
  startTestApp,
} from '../test-support/index.js';

const SECRET_DETAIL = 'connection to db-internal.example:5432 failed for user portico_rw';

for (const dialect of await testDialects()) {
  describe(`${dialect}: error answers`, () => {
    let t: TestApp;
    let admin: TestSession;
    let plainUser: SignedInUser;
    const log = memoryLog();

    beforeAll(async () => {
      t = await startTestApp(dialect, { logger: { level: 'error', stream: log.stream } });
      // A route that fails like a bug or a broken dependency would.
      t.app.get('/management/test/boom', async () => {
        throw new Error(SECRET_DETAIL);
      });
      admin = await login(t.app, 'admin', 'admin');
      plainUser = await signInNewUser(t.app, t.db);
    });
    afterAll(() => t?.close());

    describe('400: validation', () => {
      it('names the invalid field of a body and stores nothing', async () => {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/users',
          payload: { firstname: 'Ada', lastname: 'Lovelace', email: 'not-an-email' },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('email'));
        expect(await findUserByEmail(t.db, 'not-an-email')).toBeUndefined();
        expect(await findRecentMails(t.db, 10)).toEqual([]);
      });

      it('says a missing field is required', async () => {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/users/registration',
          payload: { firstname: 'Ada', email: 'ada@example.test' },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('lastname', 'is required'));
        expect(await findUserByEmail(t.db, 'ada@example.test')).toBeUndefined();
      });

      it('names an invalid query parameter', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/audit?page=0' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('page'));
      });

      it('refuses a body that is not JSON', async () => {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/users',
          headers: { 'content-type': 'application/json' },
          payload: '{"firstname": ',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, 'Invalid JSON body'));
      });
    });

    it('413: refuses a body larger than 2 MB, in the error model', async () => {
      const res = await call(t.app, plainUser.session, {
        method: 'PUT',
        url: '/user',
        payload: { firstname: 'x'.repeat(2 * 1024 * 1024 + 1) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual(errorBody(413, 'The request body is larger than the limit of 2 MB'));
    });

    it('401: a call that needs a session gets "You must be authenticated" without one', async () => {
      const res = await call(t.app, undefined, { method: 'GET', url: '/user' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(errorBody(401, 'You must be authenticated'));
    });

    it('401: a forged bearer token is no session', async () => {
      const res = await call(t.app, { token: `${admin.token}x`, xsrf: '' }, { method: 'GET', url: '/user' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(errorBody(401, 'You must be authenticated'));
    });

    it('403: names the permission the user lacks', async () => {
      const res = await call(t.app, plainUser.session, { method: 'GET', url: '/audit' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-audit-r'));
    });

    describe('404', () => {
      it('answers an unknown route with the method and path', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/no/such/thing?x=1' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, 'No resource at GET /management/no/such/thing'));
      });

      it('answers an unknown entity with its type and id', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/users/no-such-user' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, 'User [no-such-user] can not be found.'));
      });
    });

    it('412: a write with a stale If-Match is refused and changes nothing', async () => {
      const res = await call(t.app, plainUser.session, {
        method: 'PUT',
        url: '/user',
        headers: { 'if-match': '"not-the-current-version"' },
        payload: { firstname: 'Changed' },
      });
      expect(res.statusCode).toBe(412);
      expect(res.json()).toEqual(
        errorBody(412, 'The resource was modified by someone else: reload it before saving'),
      );
      expect((await findUserById(t.db, plainUser.user.id))?.firstname).toBe(plainUser.user.firstname);
    });

    it('429: sign-ins from an address that failed too often are refused with Retry-After', async () => {
      const attempt = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/management/user/login',
          headers: { authorization: basic('admin', password) },
          remoteAddress: '203.0.113.40',
        });
      for (let i = 0; i < 5; i++) expect((await attempt('wrong')).statusCode).toBe(401);
      const res = await attempt('admin');
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual(errorBody(429, 'Too many failed sign-in attempts, try again in 1 second'));
    });

    it('500: an unexpected error answers "Unexpected error" without detail nor stack, and is logged', async () => {
      const res = await call(t.app, admin, { method: 'GET', url: '/test/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Unexpected error', http_status: 500 });
      expect(res.body).not.toContain('db-internal');
      expect(res.body).not.toMatch(/stack|\.ts:\d+/);
      expect(log.text()).toContain(SECRET_DETAIL);
    });
  });
}
