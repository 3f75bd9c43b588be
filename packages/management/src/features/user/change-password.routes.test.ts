import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById, updateUser } from '@portico/storage';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase, testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  basic,
  call,
  createUser,
  errorBody,
  invalidFieldBody,
  login,
  memoryLog,
  startTestApp,
} from '../../test-support/index.js';

let addresses = 0;
const newAddress = () => `10.6.${Math.floor(++addresses / 250)}.${addresses % 250}`;
const INITIAL_ADMIN_WARNING = 'still has its initial password';

for (const dialect of await testDialects()) {
  describe(`${dialect}: POST user/changePassword`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(dialect);
    });
    afterAll(() => t?.close());

    const change = (session: TestSession | undefined, payload: Record<string, unknown>) =>
      call(t.app, session, { method: 'POST', url: '/user/changePassword', payload });
    const signIn = (username: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/management/user/login',
        headers: { authorization: basic(username, password) },
        remoteAddress: newAddress(),
      });
    const me = (session: TestSession) => call(t.app, session, { method: 'GET', url: '/user' });

    it('changes the password (204), keeps the calling session and ends the other ones', async () => {
      const user = await createUser(t.db, { password: 'first password' });
      const here = await login(t.app, user.source_id, 'first password', newAddress());
      const elsewhere = await login(t.app, user.source_id, 'first password', newAddress());

      const res = await change(here, { old_password: 'first password', password: 'second password' });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');

      expect((await me(here)).statusCode).toBe(200);
      expect((await me(elsewhere)).statusCode).toBe(401);
      expect((await signIn(user.source_id, 'second password')).statusCode).toBe(200);
      expect((await signIn(user.source_id, 'first password')).statusCode).toBe(401);
      const audit = await t.db
        .selectFrom('audits')
        .selectAll()
        .where('event', '=', 'PASSWORD_CHANGED')
        .where('user_id', '=', user.id)
        .execute();
      expect(audit).toHaveLength(1);
    });

    it("refuses a wrong current password with 400 'Wrong current password' naming old_password", async () => {
      const user = await createUser(t.db, { password: 'first password' });
      const session = await login(t.app, user.source_id, 'first password', newAddress());
      const stored = (await findUserById(t.db, user.id))!.password;

      const res = await change(session, { old_password: 'not it', password: 'second password' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody(400, 'Wrong current password', 'old_password'));
      expect((await findUserById(t.db, user.id))!.password).toBe(stored);
      expect((await me(session)).statusCode).toBe(200);
    });

    it('throttles guesses of the current password like failed sign-ins', async () => {
      const user = await createUser(t.db, { password: 'first password' });
      const session = await login(t.app, user.source_id, 'first password', newAddress());
      for (let i = 0; i < 5; i++)
        expect(
          (await change(session, { old_password: `guess ${i}`, password: 'whatever long' })).statusCode,
        ).toBe(400);
      const res = await change(session, { old_password: 'first password', password: 'second password' });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('applies the registration password policy', async () => {
      const user = await createUser(t.db, { password: 'first password' });
      const session = await login(t.app, user.source_id, 'first password', newAddress());
      const res = await change(session, { old_password: 'first password', password: 'short' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidFieldBody('password', 'must be at least 8 characters long'));
      const missing = await change(session, { password: 'second password' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual(invalidFieldBody('old_password', 'is required'));
    });

    it("refuses a user of an identity provider (no password of the product's own store) with 400", async () => {
      const user = await createUser(t.db);
      await updateUser(t.db, user.id, { source: 'github', password: null });
      const { token } = await t.services.tokens.issue(user.id);
      const res = await change(
        { token, xsrf: '' },
        { old_password: 'anything', password: 'second password' },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidFieldBody('source', /built-in user store/));
    });

    it('needs a session (401)', async () => {
      const res = await change(undefined, { old_password: 'a', password: 'second password' });
      expect(res.statusCode).toBe(401);
    });

    it('is documented in the OpenAPI document with its body and answers', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/management/openapi.json' })).json();
      const operation = doc.paths['/user/changePassword'].post;
      const schema = operation.requestBody.content['application/json'].schema;
      expect(schema.required.sort()).toEqual(['old_password', 'password']);
      expect(schema.properties.password).toMatchObject({ minLength: 8, maxLength: 128 });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['204', '400', '401', '429']));
    });
  });

  describe(`${dialect}: the initial administrator password warning`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(() => database?.destroy());

    it('is no longer logged at start once admin changed its password', async () => {
      const firstLog = memoryLog();
      const first = await startTestApp(dialect, {
        database,
        logger: { level: 'info', stream: firstLog.stream },
      });
      expect(firstLog.text()).toContain(INITIAL_ADMIN_WARNING);
      const admin = await login(first.app, 'admin', 'admin');
      const res = await call(first.app, admin, {
        method: 'POST',
        url: '/user/changePassword',
        payload: { old_password: 'admin', password: 'a much better password' },
      });
      expect(res.statusCode).toBe(204);
      expect(firstLog.text()).toContain('is no longer the initial one');
      await first.close();

      const secondLog = memoryLog();
      const second = await startTestApp(dialect, {
        database,
        logger: { level: 'info', stream: secondLog.stream },
      });
      try {
        expect(secondLog.text()).not.toContain(INITIAL_ADMIN_WARNING);
        await login(second.app, 'admin', 'a much better password');
      } finally {
        await second.close();
      }
    });
  });
}
