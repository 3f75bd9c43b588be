import { beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail, findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import { call, createUser, errorBody, grantRoleOn, invalidFieldBody } from '../../test-support/index.js';
import { signInNewUser } from '../../test-support/index.js';
import type { UsersApp } from './test-support/users-calls.js';
import { DAY, linkToken, mailsTo, newEmail, useUsersApp } from './test-support/users-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: users, registration and passwords`, () => {
    let t: TestApp, admin: TestSession, plainUser: SignedInUser;
    let register: UsersApp['register'], signIn: UsersApp['signIn'];

    useUsersApp(dialect, (app) => ({ t, admin, plainUser, register, signIn } = app));

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
}
