import { describe, expect, it } from 'vitest';
import { findUserByEmail, findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import { call, createUser, errorBody, invalidFieldBody } from '../../test-support/index.js';
import type { UsersApp } from './test-support/users-calls.js';
import { DAY, linkToken, mailsTo, newEmail, useUsersApp } from './test-support/users-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: users, registration and passwords`, () => {
    let t: TestApp, admin: TestSession, plainUser: SignedInUser;
    let register: UsersApp['register'], finalize: UsersApp['finalize'];
    let signIn: UsersApp['signIn'], setUserCreation: UsersApp['setUserCreation'];

    useUsersApp(
      dialect,
      (app) => ({ t, admin, plainUser, register, finalize, signIn, setUserCreation } = app),
    );

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
  });
}
