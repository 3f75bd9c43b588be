import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInvitationsOfReference, findMembershipsOfReference, findUserByEmail } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession, TestSmtpServer } from '../../test-support/index.js';
import {
  addMembership,
  call,
  createUser,
  errorBody,
  invalidFieldBody,
  login,
  signInNewUser,
  startSmtpServer,
  startTestApp,
  uniqueId,
} from '../../test-support/index.js';

const GROUPS = '/configuration/groups';
const PORTAL_URL = 'https://portal.example.test';
const newEmail = () => `${uniqueId('invited')}@example.test`;

for (const dialect of await testDialects()) {
  describe(`${dialect}: group invitations`, () => {
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

    const createGroup = async (body: object = {}) =>
      (
        await call(t.app, admin, {
          method: 'POST',
          url: GROUPS,
          payload: { name: uniqueId('Group'), ...body },
        })
      ).json() as { id: string; name: string };
    const invite = (groupId: string, payload: object, session = admin) =>
      call(t.app, session, { method: 'POST', url: `${GROUPS}/${groupId}/invitations`, payload });
    const rolesIn = async (groupId: string, userId: string) =>
      Object.fromEntries(
        (await findMembershipsOfReference(t.db, 'GROUP', groupId))
          .filter((m) => m.member_id === userId)
          .map((m) => [m.role_scope, m.role_name]),
      );
    /** The link of the last mail received by the address, read from the real SMTP server. */
    const linkMailedTo = (email: string, subject: RegExp) => {
      const mail = smtp.received.filter(
        (m) => JSON.stringify(m.to).includes(email) && subject.test(m.subject ?? ''),
      );
      const match = new RegExp(`${PORTAL_URL}/registration/confirm/([\\w.-]+)`).exec(mail.at(-1)?.text ?? '');
      if (!match) throw new Error(`no link mailed to ${email}`);
      return match[1]!;
    };
    const finalize = (token: string) =>
      call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration/finalize',
        payload: { token, password: 'a good password', firstname: 'Ivy', lastname: 'Invited' },
      });

    it('mails a link to an unknown email; finishing the account joins the group with the invitation roles', async () => {
      const g = await createGroup({ roles: { APPLICATION: 'OWNER' } });
      const email = newEmail();

      const res = await invite(g.id, {
        email,
        api_role: 'REVIEWER',
        reference_type: 'GROUP',
        reference_id: g.id,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        email,
        api_role: 'REVIEWER',
        application_role: null,
        reference_type: 'GROUP',
      });
      const listed = (
        await call(t.app, admin, { method: 'GET', url: `${GROUPS}/${g.id}/invitations` })
      ).json();
      expect(listed.map((i: { email: string }) => i.email)).toEqual([email]);
      expect(smtp.received.some((m) => m.subject?.includes(`Group invitation - ${g.name}`))).toBe(true);

      const done = await finalize(linkMailedTo(email, /Group invitation/));
      expect(done.statusCode).toBe(200);
      const user = (await findUserByEmail(t.db, email))!;
      expect(user.status).toBe('ACTIVE');
      expect(await rolesIn(g.id, user.id)).toEqual({ API: 'REVIEWER', APPLICATION: 'OWNER' });
      expect(await findInvitationsOfReference(t.db, 'GROUP', g.id)).toEqual([]);
      expect((await login(t.app, email, 'a good password')).token).toBeTruthy();

      const again = await finalize(linkMailedTo(email, /Group invitation/));
      expect(again.json()).toEqual(invalidFieldBody('token', 'Invitation has been canceled'));
    });

    it('refuses the link of a removed invitation, creating no user', async () => {
      const g = await createGroup();
      const email = newEmail();
      const invitation = (await invite(g.id, { email })).json();
      const removed = await call(t.app, admin, {
        method: 'DELETE',
        url: `${GROUPS}/${g.id}/invitations/${invitation.id}`,
      });
      expect(removed.statusCode).toBe(204);
      const res = await finalize(linkMailedTo(email, /Group invitation/));
      expect(res.json()).toEqual(invalidFieldBody('token', 'Invitation has been canceled'));
      expect(await findUserByEmail(t.db, email)).toBeUndefined();
    });

    it('turns the invitation into a membership when an administrator creates that user and the user finishes', async () => {
      const g = await createGroup();
      const email = newEmail();
      await invite(g.id, { email, application_role: 'OWNER' });
      const created = await call(t.app, admin, { method: 'POST', url: '/users', payload: { email } });
      expect(created.statusCode).toBe(201);
      const done = await finalize(linkMailedTo(email, /User registration/));
      expect(done.statusCode).toBe(200);
      expect(await rolesIn(g.id, created.json().id)).toEqual({ API: 'USER', APPLICATION: 'OWNER' });
    });

    it('adds an existing user at once (204), and refuses to invite a member again', async () => {
      const g = await createGroup();
      const user = await createUser(t.db, { email: newEmail() });
      const res = await invite(g.id, { email: user.email!.toUpperCase(), api_role: 'OWNER' });
      expect(res.statusCode).toBe(204);
      expect(await rolesIn(g.id, user.id)).toEqual({ API: 'OWNER', APPLICATION: 'USER' });
      const again = await invite(g.id, { email: user.email });
      expect(again.json()).toEqual(
        errorBody(400, `A member with the email [${user.email}] already exists.`, 'email'),
      );
    });

    it.each([
      [{ email: 'not an email' }, 'email', undefined],
      [{}, 'email', undefined],
      [{ email: 'x@example.test', api_role: 'NOPE' }, 'api_role', /does not exist/],
      [{ email: 'x@example.test', application_role: 'PRIMARY_OWNER' }, 'application_role', /system role/],
    ])('refuses %j naming the field, storing nothing', async (payload, field, reason) => {
      const g = await createGroup();
      const res = await invite(g.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidFieldBody(field, reason));
      expect(await findInvitationsOfReference(t.db, 'GROUP', g.id)).toEqual([]);
    });

    it('refuses a second invitation of the same email', async () => {
      const g = await createGroup();
      const email = newEmail();
      await invite(g.id, { email });
      const res = await invite(g.id, { email });
      expect(res.json()).toEqual(
        errorBody(400, `An invitation with the email [${email}] already exists.`, 'email'),
      );
    });

    it('changes the roles of a pending invitation, refusing an unknown role', async () => {
      const g = await createGroup();
      const invitation = (await invite(g.id, { email: newEmail() })).json();
      const url = `${GROUPS}/${g.id}/invitations/${invitation.id}`;
      const res = await call(t.app, admin, {
        method: 'PUT',
        url,
        payload: { ...invitation, api_role: 'OWNER', application_role: 'USER' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ api_role: 'OWNER', application_role: 'USER' });
      const bad = await call(t.app, admin, { method: 'PUT', url, payload: { api_role: 'NOPE' } });
      expect(bad.json()).toEqual(invalidFieldBody('api_role', /does not exist/));
      expect((await findInvitationsOfReference(t.db, 'GROUP', g.id))[0]!.api_role).toBe('OWNER');
      const missing = await call(t.app, admin, {
        method: 'PUT',
        url: `${GROUPS}/${g.id}/invitations/nope`,
        payload: {},
      });
      expect(missing.statusCode).toBe(404);
    });

    describe('group admins', () => {
      const groupAdminOf = async (groupId: string) => {
        const u = await signInNewUser(t.app, t.db);
        await addMembership(t.db, {
          memberId: u.user.id,
          referenceType: 'GROUP',
          referenceId: groupId,
          roleScope: 'GROUP',
          roleName: 'ADMIN',
        });
        return u;
      };

      it('may invite by email only when email invitation is on', async () => {
        const g = await createGroup({ email_invitation: false });
        const groupAdmin = await groupAdminOf(g.id);
        const res = await invite(g.id, { email: newEmail() }, groupAdmin.session);
        expect(res.json()).toEqual(
          errorBody(400, `Invitation email is forbidden for group [${g.id}]`, 'email_invitation'),
        );
        expect(await findInvitationsOfReference(t.db, 'GROUP', g.id)).toEqual([]);
      });

      it('cannot choose a locked role for an invitation', async () => {
        const g = await createGroup({ email_invitation: true, lock_api_role: true });
        const groupAdmin = await groupAdminOf(g.id);
        const res = await invite(
          g.id,
          { email: newEmail(), api_role: 'OWNER', application_role: 'OWNER' },
          groupAdmin.session,
        );
        expect(res.json()).toMatchObject({ api_role: null, application_role: 'OWNER' });
      });

      it('other users may neither list nor invite (403)', async () => {
        const g = await createGroup({ email_invitation: true });
        const other = await signInNewUser(t.app, t.db);
        expect((await invite(g.id, { email: newEmail() }, other.session)).statusCode).toBe(403);
        const list = await call(t.app, other.session, {
          method: 'GET',
          url: `${GROUPS}/${g.id}/invitations`,
        });
        expect(list.statusCode).toBe(403);
        expect(await findInvitationsOfReference(t.db, 'GROUP', g.id)).toEqual([]);
      });
    });
  });
}
