import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertNotificationSetting } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession, TestSmtpServer } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createGroup,
  createUser,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startSmtpServer,
  startTestApp,
} from '../../test-support/index.js';
import { CONTENT_REQUIRED, SUBJECT_REQUIRED } from './tickets.routes.js';
import { EMAIL_REQUIRED, SUPPORT_UNAVAILABLE } from './tickets.service.js';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

for (const dialect of await testDialects()) {
  describe(`${dialect}: support tickets (POST platform/tickets)`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: { schedulerTickMs: 0, smtpUrl: smtp.url } });
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());
    beforeEach(async () => {
      smtp.received.length = 0;
      await setSupport({ enabled: true, email: 'support@portico.test' });
    });

    const setSupport = async (support: { enabled?: boolean; email?: string }) => {
      const res = await call(t.app, admin, {
        method: 'POST',
        url: '/portal',
        payload: { portal: { support } },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const send = (session: TestSession | undefined, payload: object) =>
      call(t.app, session, { method: 'POST', url: '/platform/tickets', payload });
    /** An API whose primary owner is a new user with this address. */
    const apiOwnedBy = async (email: string | null, api: Parameters<typeof createApi>[1] = {}) => {
      const owner = await createUser(t.db, { email });
      const row = await createApi(t.db, { visibility: 'PUBLIC', lifecycle_state: 'PUBLISHED', ...api });
      await grantRoleOn(t.db, owner.id, 'API', row.id, 'PRIMARY_OWNER');
      return { api: row, owner };
    };
    const mails = () =>
      smtp.received.map((m) => ({
        to: m.to && !Array.isArray(m.to) ? m.to.text : '',
        replyTo: m.replyTo?.text ?? null,
        subject: m.subject,
        text: m.text ?? '',
      }));

    it('mails the ticket to the primary owner of the API, answerable to its author, with a copy to the author', async () => {
      const { api } = await apiOwnedBy('owner@apis.test', { name: 'Weather', version: '2.1' });
      const author = await signInNewUser(t.app, t.db, {}, { firstname: 'Grace', lastname: 'Hopper' });
      const res = await send(author.session, {
        api: api.id,
        subject: 'Quota question',
        content: 'How many calls a day?',
        copyToSender: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      const [toOwner, copy] = mails();
      expect(mails()).toHaveLength(2);
      expect(toOwner).toMatchObject({
        to: 'owner@apis.test',
        replyTo: author.user.email,
        subject: '[Portico] Quota question',
      });
      expect(toOwner!.text).toContain('How many calls a day?');
      expect(toOwner!.text).toContain(`From: Grace Hopper <${author.user.email}>`);
      expect(toOwner!.text).toContain('API: Weather (2.1)');
      expect(copy).toMatchObject({ to: author.user.email!, subject: '[Portico] Quota question' });
      expect(copy!.text).toContain('How many calls a day?');
    });

    it('sends no copy unless asked, and mails a ticket about no API to the support address', async () => {
      const author = await signInNewUser(t.app, t.db);
      const res = await send(author.session, { subject: 'Sign-up', content: 'Hello' });
      expect(res.statusCode, res.body).toBe(201);
      expect(mails()).toEqual([
        expect.objectContaining({ to: 'support@portico.test', replyTo: author.user.email }),
      ]);
    });

    it('needs a signed-in user with an email address', async () => {
      expect((await send(undefined, { subject: 's', content: 'c' })).statusCode).toBe(401);
      const noEmail = await signInNewUser(t.app, t.db, {}, { email: null });
      const res = await send(noEmail.session, { subject: 's', content: 'c' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidFieldBody('email', EMAIL_REQUIRED));
      expect(mails()).toEqual([]);
    });

    it('refuses a ticket without subject or content, naming the field', async () => {
      const author = await signInNewUser(t.app, t.db);
      const cases: [object, string, string][] = [
        [{ content: 'c' }, 'subject', SUBJECT_REQUIRED],
        [{ subject: '  ', content: 'c' }, 'subject', SUBJECT_REQUIRED],
        [{ subject: 's' }, 'content', CONTENT_REQUIRED],
        [{ subject: 's', content: '' }, 'content', CONTENT_REQUIRED],
      ];
      for (const [payload, field, reason] of cases) {
        const res = await send(author.session, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody(field, reason));
      }
      expect(mails()).toEqual([]);
    });

    it('answers 404 for an unknown API or application, 403 for a private API or an application of others', async () => {
      const author = await signInNewUser(t.app, t.db);
      const ticket = { subject: 's', content: 'c' };
      expect((await send(author.session, { ...ticket, api: 'nope' })).statusCode).toBe(404);
      expect((await send(author.session, { ...ticket, application: 'nope' })).statusCode).toBe(404);
      const { api: privateApi } = await apiOwnedBy('p@apis.test', { visibility: 'PRIVATE' });
      expect((await send(author.session, { ...ticket, api: privateApi.id })).statusCode).toBe(403);
      const { api: unpublished } = await apiOwnedBy('u@apis.test', { lifecycle_state: 'UNPUBLISHED' });
      expect((await send(author.session, { ...ticket, api: unpublished.id })).statusCode).toBe(403);
      const others = await createApplication(t.db);
      expect((await send(author.session, { ...ticket, application: others.id })).statusCode).toBe(403);
      expect(mails()).toEqual([]);

      // A member of the private API's group may write about it, and about an application of theirs.
      const group = await createGroup(t.db);
      const grouped = await apiOwnedBy('g@apis.test', { visibility: 'PRIVATE', groups: [group.id] });
      await grantRoleThroughGroup(t.db, author.user.id, group.id, 'APPLICATION', 'USER');
      const mine = await createApplication(t.db, { name: 'Mobile app' });
      await grantRoleOn(t.db, author.user.id, 'APPLICATION', mine.id, 'OWNER');
      const res = await send(author.session, { ...ticket, api: grouped.api.id, application: mine.id });
      expect(res.statusCode, res.body).toBe(201);
      expect(mails()).toEqual([expect.objectContaining({ to: 'g@apis.test' })]);
      expect(mails()[0]!.text).toContain('Application: Mobile app');
    });

    it('answers 503 when support is disabled or has nowhere to send the ticket', async () => {
      const author = await signInNewUser(t.app, t.db);
      const ticket = { subject: 's', content: 'c' };
      await setSupport({ email: '' });
      expect((await send(author.session, ticket)).json()).toEqual(errorBody(503, SUPPORT_UNAVAILABLE));
      const { api } = await apiOwnedBy(null);
      expect((await send(author.session, { ...ticket, api: api.id })).statusCode).toBe(503);
      await setSupport({ enabled: false, email: 'support@portico.test' });
      expect((await send(author.session, ticket)).statusCode).toBe(503);
      expect(mails()).toEqual([]);
    });

    it('triggers NEW_SUPPORT_TICKET through the notification settings of the API and the platform', async () => {
      const { api, owner } = await apiOwnedBy('n@apis.test');
      const watcher = await createUser(t.db);
      const setting = (referenceType: string, referenceId: string, userId: string) =>
        insertNotificationSetting(t.db, {
          ...{
            id: `n-${Math.random()}`,
            name: 'Portal',
            config_type: 'PORTAL',
            reference_type: referenceType,
          },
          ...{ reference_id: referenceId, user_id: userId, notifier: 'default-portal', config: null },
          ...{
            use_system_proxy: 0,
            hooks: JSON.stringify(['NEW_SUPPORT_TICKET']),
            created_at: 0,
            updated_at: 0,
          },
        });
      await setting('API', api.id, owner.id);
      await setting('PORTAL', 'DEFAULT', watcher.id);
      const author = await signInNewUser(t.app, t.db, {}, { firstname: 'Alan', lastname: 'Turing' });
      expect((await send(author.session, { api: api.id, subject: 'Down?', content: 'c' })).statusCode).toBe(
        201,
      );
      const told = await t.db
        .selectFrom('notifications')
        .select(['user_id', 'message'])
        .where('user_id', 'in', [owner.id, watcher.id])
        .execute();
      expect(told.map((n) => n.user_id).sort()).toEqual([owner.id, watcher.id].sort());
      expect(told[0]!.message).toBe('Alan Turing opened a support ticket: Down?');
    });
  });
}
