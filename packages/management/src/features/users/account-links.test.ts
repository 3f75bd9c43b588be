import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailRow } from '@portico/storage';
import { findRecentMails, findUserByEmail, findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession, TestSmtpServer } from '../../test-support/index.js';
import {
  basic,
  call,
  createUser,
  errorBody,
  invalidFieldBody,
  login,
  startSmtpServer,
  startTestApp,
} from '../../test-support/index.js';
import { MAILS_PER_EMAIL, REGISTRATIONS_PER_ADDRESS } from './mail-rate-limit.js';

const PORTAL_URL = 'https://portal.example.test';
let emails = 0;
let addresses = 0;
const newEmail = (name: string) => `${name}.${++emails}.${Date.now()}@example.test`;
const newAddress = () => `10.7.${Math.floor(++addresses / 250)}.${addresses % 250}`;

/** The reset links mailed to one address, oldest first, read from the real SMTP server's inbox. */
function resetTokensIn(smtp: TestSmtpServer, email: string): string[] {
  return smtp.received
    .filter((m) => JSON.stringify(m.to).includes(email) && /Password reset/.test(m.subject ?? ''))
    .map((m) => {
      const match = new RegExp(`${PORTAL_URL}/resetPassword/([\\w.-]+)`).exec(m.text ?? '');
      if (!match) throw new Error(`no reset link in: ${m.text}`);
      return match[1]!;
    });
}

async function outboxOf(t: TestApp, email: string): Promise<MailRow[]> {
  const all = await findRecentMails(t.db, 1000);
  return all.filter((m) => (JSON.parse(m.recipients) as string[]).includes(email));
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: password links, sessions and account mail limits`, () => {
    let smtp: TestSmtpServer;
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await startTestApp(dialect, { options: { smtpUrl: smtp.url, portalUrl: PORTAL_URL } });
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    const requestReset = (userId: string) =>
      call(t.app, admin, { method: 'POST', url: `/users/${userId}/resetPassword` });
    const usePassword = (userId: string, token: string, password: string) =>
      call(t.app, undefined, {
        method: 'POST',
        url: `/users/${userId}/changePassword`,
        payload: { token, password },
      });
    const me = (session: TestSession) => call(t.app, session, { method: 'GET', url: '/user' });
    const register = (email: string, remoteAddress = newAddress()) =>
      call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: { firstname: 'Reg', lastname: 'Istered', email },
        remoteAddress,
      });

    describe('password reset', () => {
      it('ends every session of the user, as cookie and as bearer; the new password opens a new one', async () => {
        const user = await createUser(t.db, { email: newEmail('stolen'), password: 'old password' });
        const first = await login(t.app, user.source_id, 'old password');
        const second = await login(t.app, user.source_id, 'old password');
        expect((await me(first)).statusCode).toBe(200);

        expect((await requestReset(user.id)).statusCode).toBe(204);
        const [token] = resetTokensIn(smtp, user.email!);
        expect((await usePassword(user.id, token!, 'brand new password')).statusCode).toBe(204);

        for (const session of [first, second]) expect((await me(session)).statusCode).toBe(401);
        const cookie = await t.app.inject({
          method: 'GET',
          url: '/management/user',
          cookies: { 'Auth-Portico': first.token },
        });
        expect(cookie.statusCode).toBe(401);
        const fresh = await login(t.app, user.source_id, 'brand new password');
        expect((await me(fresh)).json()).toMatchObject({ id: user.id });
      });

      it('makes only the newest link work; a used link cannot be used again', async () => {
        const user = await createUser(t.db, { email: newEmail('links'), password: 'old password' });
        expect((await requestReset(user.id)).statusCode).toBe(204);
        expect((await requestReset(user.id)).statusCode).toBe(204);
        const [older, newer] = resetTokensIn(smtp, user.email!);

        const stale = await usePassword(user.id, older!, 'from the old link');
        expect(stale.statusCode).toBe(400);
        expect(stale.json()).toEqual(
          invalidFieldBody('token', 'this link was already used, or a newer one was sent'),
        );
        expect((await usePassword(user.id, newer!, 'from the new link')).statusCode).toBe(204);
        expect((await usePassword(user.id, newer!, 'used twice!')).statusCode).toBe(400);

        const signIn = (password: string) =>
          t.app.inject({
            method: 'POST',
            url: '/management/user/login',
            headers: { authorization: basic(user.source_id, password) },
            remoteAddress: newAddress(),
          });
        expect((await signIn('from the new link')).statusCode).toBe(200);
        expect((await signIn('from the old link')).statusCode).toBe(401);
      });

      it(`mails at most ${MAILS_PER_EMAIL.limit} links to one email per 15 minutes (429 with Retry-After)`, async () => {
        const user = await createUser(t.db, { email: newEmail('flooded') });
        for (let i = 0; i < MAILS_PER_EMAIL.limit; i++)
          expect((await requestReset(user.id)).statusCode).toBe(204);

        const refused = await requestReset(user.id);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
        expect(refused.json()).toEqual(
          errorBody(429, /^Too many mails were sent to this address: try again in \d+ seconds?$/, 'email'),
        );
        expect(await outboxOf(t, user.email!)).toHaveLength(MAILS_PER_EMAIL.limit);

        t.clock.advance(MAILS_PER_EMAIL.windowMs);
        expect((await requestReset(user.id)).statusCode).toBe(204);
      });
    });

    describe('registration', () => {
      it(`accepts at most ${REGISTRATIONS_PER_ADDRESS.limit} registrations per address and hour, storing nothing past them`, async () => {
        const address = newAddress();
        for (let i = 0; i < REGISTRATIONS_PER_ADDRESS.limit; i++)
          expect((await register(newEmail('spray'), address)).statusCode).toBe(201);

        const email = newEmail('one-too-many');
        const refused = await register(email, address);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.json()).toEqual(
          errorBody(429, /^Too many registrations from your address: try again in \d+ seconds?$/),
        );
        expect(await findUserByEmail(t.db, email)).toBeUndefined();
        expect(await outboxOf(t, email)).toEqual([]);

        expect((await register(email, newAddress())).statusCode).toBe(201);
      });

      it('keeps a pending registration as it was when the email registers again', async () => {
        const email = newEmail('pending');
        expect((await register(email)).statusCode).toBe(201);
        const pending = await findUserByEmail(t.db, email);
        const again = await call(t.app, undefined, {
          method: 'POST',
          url: '/users/registration',
          payload: { firstname: 'Mallory', lastname: 'Overwrite', email },
          remoteAddress: newAddress(),
        });
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual(errorBody(400, `A user [${email}] already exists.`, 'email'));
        expect(await findUserById(t.db, pending!.id)).toEqual(pending);
        expect(await outboxOf(t, email)).toHaveLength(1);
      });
    });
  });
}
