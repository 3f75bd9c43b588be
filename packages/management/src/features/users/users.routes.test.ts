import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailRow } from '@portico/storage';
import { findRecentMails, findUserByEmail, findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession, TestSmtpServer } from '../../test-support/index.js';
import {
  basic,
  call,
  createUser,
  errorBody,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startSmtpServer,
  startTestApp,
} from '../../test-support/index.js';

const PORTAL_URL = 'https://portal.example.test';
const DAY = 24 * 3600 * 1000;

let emails = 0;
let signIns = 0;
let registrations = 0;
const newEmail = (name = 'dev') => `${name}.${++emails}.${Date.now()}@example.test`;

/** The mails sent to one address, oldest first. */
async function mailsTo(app: TestApp, email: string): Promise<MailRow[]> {
  const all = await findRecentMails(app.db, 1000);
  return all.filter((m) => (JSON.parse(m.recipients) as string[]).includes(email)).reverse();
}

function linkToken(mail: MailRow, path: string): string {
  const match = new RegExp(`${PORTAL_URL}/${path}/([\\w.-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1]!;
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: users, registration and passwords`, () => {
    let t: TestApp;
    let admin: TestSession;
    let plainUser: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: { portalUrl: PORTAL_URL } });
      admin = await login(t.app, 'admin', 'admin');
      plainUser = await signInNewUser(t.app, t.db, {}, { firstname: 'Plain', lastname: 'Member' });
    });
    afterAll(() => t?.close());

    const register = (email: string, names = { firstname: 'Ada', lastname: 'Lovelace' }) =>
      call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: { ...names, email },
        // Each from its own address: registrations are limited per address.
        remoteAddress: `10.8.${Math.floor(++registrations / 250)}.${registrations % 250}`,
      });
    const finalize = (
      token: string,
      password = 'correct horse',
      names = { firstname: 'Ada', lastname: 'King' },
    ) =>
      call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration/finalize',
        payload: { token, password, ...names },
      });
    const signIn = (username: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/management/user/login',
        headers: { authorization: basic(username, password) },
        // Each attempt from its own address: this file's failures must not add up to a throttle.
        remoteAddress: `10.9.${Math.floor(++signIns / 250)}.${signIns % 250}`,
      });
    const setUserCreation = async (enabled: boolean) => {
      const res = await call(t.app, admin, {
        method: 'POST',
        url: '/portal',
        payload: { portal: { userCreation: { enabled } } },
      });
      expect(res.statusCode).toBe(200);
    };

    describe('self-registration', () => {
      it('creates a pending user without password, mails the link and audits USER_CREATED', async () => {
        const email = newEmail('ada');
        const res = await register(email);
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ username: email, email, status: 'PENDING', firstname: 'Ada' });

        const stored = await findUserByEmail(t.db, email);
        expect(stored).toMatchObject({ status: 'PENDING', password: null, source: 'portico' });

        const [mail, ...more] = await mailsTo(t, email);
        expect(more).toEqual([]);
        expect(mail).toMatchObject({ subject: 'User registration', status: 'LOGGED' });
        expect(mail!.text).toContain('Hello Ada Lovelace');
        expect(mail!.text).toContain('registered on Portico');
        expect(linkToken(mail!, 'registration/confirm')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

        const audit = await t.db
          .selectFrom('audits')
          .selectAll()
          .where('event', '=', 'USER_CREATED')
          .where('user_id', '=', stored!.id)
          .executeTakeFirst();
        expect(JSON.parse(audit!.properties)).toEqual({ USER: stored!.id });
        expect(JSON.parse(audit!.patch!)).toEqual(
          expect.arrayContaining([{ op: 'add', path: '/email', value: email }]),
        );
      });

      it('finalizes with the mailed token; the user can then sign in with the chosen password', async () => {
        const email = newEmail('grace');
        await register(email);
        const token = linkToken((await mailsTo(t, email))[0]!, 'registration/confirm');

        const res = await finalize(token, 'correct horse', { firstname: 'Grace', lastname: 'Hopper' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ email, status: 'ACTIVE', firstname: 'Grace', lastname: 'Hopper' });
        expect(await findUserByEmail(t.db, email)).toMatchObject({
          status: 'ACTIVE',
          password: expect.any(String),
        });

        const signedIn = await signIn(email, 'correct horse');
        expect(signedIn.statusCode).toBe(200);
        expect((await signIn(email, 'wrong horse')).statusCode).toBe(401);
      });

      it('refuses a token used once already, and keeps the first password', async () => {
        const email = newEmail('reuse');
        await register(email);
        const token = linkToken((await mailsTo(t, email))[0]!, 'registration/confirm');
        expect((await finalize(token, 'first password')).statusCode).toBe(200);

        const again = await finalize(token, 'second password');
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual(invalidFieldBody('token'));
        expect((await signIn(email, 'first password')).statusCode).toBe(200);
        expect((await signIn(email, 'second password')).statusCode).toBe(401);
      });

      it('refuses an expired token with "Your registration is expired!" and keeps the user pending', async () => {
        const email = newEmail('late');
        await register(email);
        const token = linkToken((await mailsTo(t, email))[0]!, 'registration/confirm');
        t.clock.advance(DAY + 1000);

        const res = await finalize(token);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, 'Your registration is expired!'));
        expect(await findUserByEmail(t.db, email)).toMatchObject({ status: 'PENDING', password: null });
      });

      it('accepts a token shortly before its day is over', async () => {
        const email = newEmail('just-in-time');
        await register(email);
        const token = linkToken((await mailsTo(t, email))[0]!, 'registration/confirm');
        t.clock.advance(DAY - 60_000);
        expect((await finalize(token)).statusCode).toBe(200);
      });

      it('refuses a forged token, naming the token field', async () => {
        const email = newEmail('forger');
        await register(email);
        const token = linkToken((await mailsTo(t, email))[0]!, 'registration/confirm');
        const [header, payload] = token.split('.');
        const res = await finalize(`${header}.${payload}.c2lnbmF0dXJl`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('token', 'not a valid link'));
        expect((await findUserByEmail(t.db, email))?.status).toBe('PENDING');
      });

      it('refuses a password shorter than 8 characters and leaves the token usable', async () => {
        const email = newEmail('short');
        await register(email);
        const token = linkToken((await mailsTo(t, email))[0]!, 'registration/confirm');
        const res = await finalize(token, 'short');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('password', 'must be at least 8 characters long'));
        expect((await findUserByEmail(t.db, email))?.status).toBe('PENDING');
        expect((await finalize(token, 'long enough')).statusCode).toBe(200);
      });

      it('refuses an email of an existing account with 400 and mails nothing', async () => {
        const existing = await createUser(t.db, { email: newEmail('taken') });
        const res = await register(existing.email!);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, `A user [${existing.email}] already exists.`, 'email'));
        expect(await mailsTo(t, existing.email!)).toEqual([]);
      });

      it('refuses with 400 an email that is already the username of another account', async () => {
        const email = newEmail('username');
        const existing = await createUser(t.db, { username: email, email: newEmail('elsewhere') });
        const res = await register(email);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, `A user [${email}] already exists.`, 'email'));
        expect((await findUserById(t.db, existing.id))?.status).toBe('ACTIVE');
        expect(await mailsTo(t, email)).toEqual([]);
      });

      it('never overwrites a pending registration: a second one is refused with 400 and mails nothing', async () => {
        const email = newEmail('twice');
        await register(email, { firstname: 'First', lastname: 'Try' });
        const res = await register(email, { firstname: 'Second', lastname: 'Try' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, `A user [${email}] already exists.`, 'email'));
        const users = await t.db.selectFrom('users').selectAll().where('email', '=', email).execute();
        expect(users).toHaveLength(1);
        expect(users[0]!.firstname).toBe('First');
        const mails = await mailsTo(t, email);
        expect(mails).toHaveLength(1);
        expect(mails[0]!.text).toContain('Hello First Try');
        // The first link still finishes the account.
        expect((await finalize(linkToken(mails[0]!, 'registration/confirm'))).statusCode).toBe(200);
      });

      it('is refused with 403 when portal.userCreation.enabled is false, storing nothing', async () => {
        const email = newEmail('closed');
        await setUserCreation(false);
        try {
          const res = await register(email);
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(errorBody(403, 'User registration is disabled'));
          expect(await findUserByEmail(t.db, email)).toBeUndefined();
          expect(await mailsTo(t, email)).toEqual([]);
        } finally {
          await setUserCreation(true);
        }
        expect((await register(email)).statusCode).toBe(201);
      });
    });

    describe('POST users (creation by an administrator)', () => {
      it('creates a pending user and mails the link; the audit names the administrator', async () => {
        const email = newEmail('invited');
        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/users',
          payload: { firstname: 'Invited', lastname: 'Person', email },
        });
        expect(res.statusCode).toBe(201);
        const created = await findUserByEmail(t.db, email);
        expect(created).toMatchObject({ status: 'PENDING', firstname: 'Invited' });
        expect(await mailsTo(t, email)).toHaveLength(1);
        const audits = await t.db
          .selectFrom('audits')
          .select(['user_id', 'properties'])
          .where('event', '=', 'USER_CREATED')
          .execute();
        const audit = audits.find((a) => JSON.parse(a.properties).USER === created!.id);
        const adminId = (await call(t.app, admin, { method: 'GET', url: '/user' })).json().id;
        expect(audit?.user_id).toBe(adminId);
      });

      it('needs only an email: the display name is the email, the mail still goes', async () => {
        const email = newEmail('only-email');
        const res = await call(t.app, admin, { method: 'POST', url: '/users/', payload: { email } });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({ email, displayName: email });
        expect(await findUserByEmail(t.db, email)).toMatchObject({
          status: 'PENDING',
          firstname: null,
          lastname: null,
        });
        expect(await mailsTo(t, email)).toHaveLength(1);
        const noEmail = await call(t.app, admin, {
          method: 'POST',
          url: '/users',
          payload: { firstname: 'A' },
        });
        expect(noEmail.json()).toMatchObject({ http_status: 400, field: 'email' });
      });

      it('is refused to a user without management-user-c (MANAGEMENT scope), storing nothing', async () => {
        const email = newEmail('refused');
        const res = await call(t.app, plainUser.session, {
          method: 'POST',
          url: '/users',
          payload: { firstname: 'No', lastname: 'Way', email },
        });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-user-c'));
        expect(await findUserByEmail(t.db, email)).toBeUndefined();
        expect(await mailsTo(t, email)).toEqual([]);
      });
    });

    describe('GET users and users/{id}', () => {
      it('searches users by text, paged', async () => {
        const marker = `zyx${Date.now()}`;
        const first = await createUser(t.db, { lastname: `${marker}-a` });
        const second = await createUser(t.db, { lastname: `${marker}-b` });
        const res = await call(t.app, admin, { method: 'GET', url: `/users?q=${marker}&size=1&page=2` });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.data.map((u: { id: string }) => u.id)).toEqual([second.id]);
        expect(body.page).toMatchObject({ current: 2, total_elements: 2, total_pages: 2 });
        expect(JSON.stringify(body)).not.toContain(first.password!);
      });

      it('shows one user with their roles', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: `/users/${plainUser.user.id}` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: plainUser.user.id,
          displayName: 'Plain Member',
          roles: [
            { scope: 'MANAGEMENT', name: 'USER' },
            { scope: 'PORTAL', name: 'USER' },
          ],
        });
        expect(res.json()).not.toHaveProperty('password');
      });

      it('answers 404 for an unknown user', async () => {
        const res = await call(t.app, admin, { method: 'GET', url: '/users/unknown-id' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorBody(404, 'User [unknown-id] can not be found.'));
      });

      it('is refused to a user without management-user-r', async () => {
        for (const url of ['/users', `/users/${plainUser.user.id}`]) {
          const res = await call(t.app, plainUser.session, { method: 'GET', url });
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-user-r'));
        }
      });

      it("serves a user's avatar to anybody", async () => {
        const res = await call(t.app, undefined, {
          method: 'GET',
          url: `/users/${plainUser.user.id}/avatar`,
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/svg+xml');
        expect(res.body).toContain('>PM</text>');
      });
    });

    describe('GET search/users', () => {
      it('finds active users by name, not pending ones', async () => {
        const marker = `qwv${Date.now()}`;
        const active = await createUser(t.db, { firstname: marker, lastname: 'Active' });
        await createUser(t.db, { firstname: marker, lastname: 'Pending', status: 'PENDING' });
        const res = await call(t.app, plainUser.session, { method: 'GET', url: `/search/users?q=${marker}` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([
          {
            id: active.id,
            reference: active.id,
            firstname: marker,
            lastname: 'Active',
            displayName: `${marker} Active`,
          },
        ]);
        expect(res.body).not.toContain('@');
      });

      it('shows emails to those who manage users or members somewhere, and to nobody else', async () => {
        const marker = `qwe${Date.now()}`;
        const found = await createUser(t.db, { firstname: marker, lastname: 'Found' });
        const emailsSeenBy = async (session: TestSession) => {
          const res = await call(t.app, session, { method: 'GET', url: `/search/users?q=${marker}` });
          expect(res.statusCode).toBe(200);
          return res.json<{ email?: string | null }[]>().map((u) => u.email);
        };
        const owner = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
        const created = await call(t.app, owner.session, {
          method: 'POST',
          url: '/apis',
          payload: {
            name: 'Mine',
            version: '1',
            description: 'Mine',
            context_path: `/mine-${marker}`,
            endpoint: 'https://backend.example.com/mine',
          },
        });
        expect(created.statusCode, created.body).toBe(201);
        const viewer = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, viewer.user.id, 'API', created.json<{ id: string }>().id, 'USER');

        expect(await emailsSeenBy(admin)).toEqual([found.email]);
        expect(await emailsSeenBy(owner.session)).toEqual([found.email]);
        expect(await emailsSeenBy(viewer.session)).toEqual([undefined]);
        expect(await emailsSeenBy(plainUser.session)).toEqual([undefined]);
      });

      it('needs a session and a non-empty query', async () => {
        expect((await call(t.app, undefined, { method: 'GET', url: '/search/users?q=a' })).statusCode).toBe(
          401,
        );
        const empty = await call(t.app, plainUser.session, { method: 'GET', url: '/search/users?q=%20' });
        expect(empty.statusCode).toBe(400);
        expect(empty.json()).toEqual(invalidFieldBody('q'));
      });
    });

    describe('password reset', () => {
      let user: Awaited<ReturnType<typeof createUser>>;
      beforeAll(async () => {
        user = await createUser(t.db, { email: newEmail('forgetful'), password: 'old password' });
      });
      const requestReset = (session: TestSession, userId = user.id) =>
        call(t.app, session, { method: 'POST', url: `/users/${userId}/resetPassword` });
      const changePassword = (token: string, password: string, userId = user.id) =>
        call(t.app, undefined, {
          method: 'POST',
          url: `/users/${userId}/changePassword`,
          payload: { token, password },
        });
      const latestResetToken = async () => {
        const mails = await mailsTo(t, user.email!);
        const mail = mails.filter((m) => m.subject === 'Password reset').at(-1)!;
        return linkToken(mail, 'resetPassword');
      };

      it('mails a reset link; the token sets the new password once', async () => {
        const res = await requestReset(admin);
        expect(res.statusCode).toBe(204);
        const token = await latestResetToken();

        expect((await changePassword(token, 'new password')).statusCode).toBe(204);
        expect((await signIn(user.source_id, 'new password')).statusCode).toBe(200);
        expect((await signIn(user.source_id, 'old password')).statusCode).toBe(401);

        const again = await changePassword(token, 'third password');
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual(
          invalidFieldBody('token', 'this link was already used, or a newer one was sent'),
        );
        expect((await signIn(user.source_id, 'new password')).statusCode).toBe(200);
      });

      it("refuses a token on another user's route", async () => {
        await requestReset(admin);
        const token = await latestResetToken();
        const res = await changePassword(token, 'hijacked!', plainUser.user.id);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('token', 'this link is for another user'));
        expect((await signIn(plainUser.user.source_id, 'hijacked!')).statusCode).toBe(401);
      });

      it('refuses an expired token with "Your token is expired!"', async () => {
        await requestReset(admin);
        const token = await latestResetToken();
        t.clock.advance(DAY + 1000);
        const res = await changePassword(token, 'too late pass');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, 'Your token is expired!'));
      });

      it('refuses a registration token', async () => {
        const email = newEmail('mixup');
        await register(email);
        const registrationToken = linkToken((await mailsTo(t, email))[0]!, 'registration/confirm');
        const pending = await findUserByEmail(t.db, email);
        const res = await changePassword(registrationToken, 'sneaky password', pending!.id);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('token', 'not a valid link'));
        expect((await findUserById(t.db, pending!.id))?.status).toBe('PENDING');
      });

      it('is refused to a user without management-user-u, mailing nothing', async () => {
        const before = (await mailsTo(t, user.email!)).length;
        const res = await requestReset(plainUser.session);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-user-u'));
        expect(await mailsTo(t, user.email!)).toHaveLength(before);
      });
    });
  });

  describe(`${dialect}: registration mails through SMTP (smtpUrl)`, () => {
    let smtp: TestSmtpServer;
    let t: TestApp;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await startTestApp(dialect, { options: { smtpUrl: smtp.url, portalUrl: PORTAL_URL } });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('delivers the registration mail to the SMTP server and records it as SENT', async () => {
      const email = newEmail('smtp');
      const res = await call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: { firstname: 'Mail', lastname: 'Box', email },
      });
      expect(res.statusCode).toBe(201);

      const delivered = smtp.received.find((m) => m.to && JSON.stringify(m.to).includes(email));
      expect(delivered?.subject).toBe('[Portico] User registration');
      expect(delivered?.from?.text).toBe('noreply@portico.local');
      expect(delivered?.text).toContain(`${PORTAL_URL}/registration/confirm/`);
      expect(delivered?.html).toContain('Choose your password');

      const [row] = await mailsTo(t, email);
      expect(row).toMatchObject({ status: 'SENT', subject: '[Portico] User registration', error: null });
      expect(row!.sent_at).toEqual(expect.any(Number));
    });
  });

  describe(`${dialect}: registration when the SMTP server is down`, () => {
    let t: TestApp;
    beforeAll(async () => {
      const smtp = await startSmtpServer();
      const url = smtp.url;
      await smtp.close(); // nobody listens on that port any more
      t = await startTestApp(dialect, { options: { smtpUrl: url, portalUrl: PORTAL_URL } });
    });
    afterAll(() => t?.close());

    it('still registers the user and records the mail as FAILED with the reason', async () => {
      const email = newEmail('down');
      const res = await call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: { firstname: 'Mail', lastname: 'Lost', email },
      });
      expect(res.statusCode).toBe(201);
      expect((await findUserByEmail(t.db, email))?.status).toBe('PENDING');
      const [row] = await mailsTo(t, email);
      expect(row).toMatchObject({ status: 'FAILED', sent_at: null });
      expect(row!.error).toMatch(/ECONNREFUSED/);
    });
  });
}
