import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type {
  TestApp,
  TestProxy,
  TestReceiver,
  TestSession,
  TestSmtpServer,
} from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createGroup,
  createPlan,
  createSubscription,
  createUser,
  grantPlatformRole,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startProxy,
  startReceiver,
  startSmtpServer,
  startTestApp,
} from '../../test-support/index.js';

/** The HTTP channel's target: a real local server answering with the status each test sets. */
let receiver: TestReceiver;
let smtp: TestSmtpServer;
/** The installation's system proxy, used by the messages that ask for it. */
let proxy: TestProxy;
beforeAll(async () => {
  [receiver, smtp, proxy] = await Promise.all([startReceiver(), startSmtpServer(), startProxy()]);
});
afterAll(async () => {
  await Promise.all([receiver.close(), smtp.close(), proxy.close()]);
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: broadcast messages (POST messages, POST apis/{id}/messages)`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect, {
        options: {
          outbound: { allowPrivate: false, allowed: ['127.0.0.1'], proxy: proxy.url },
          schedulerTickMs: 0,
          smtpUrl: smtp.url,
        },
      });
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());
    beforeEach(async () => {
      receiver.received.length = 0;
      receiver.status = 200;
      smtp.received.length = 0;
      await t.db.deleteFrom('notifications').execute();
      await t.db.deleteFrom('notification_deliveries').execute();
    });

    const send = (payload: object, url = '/messages', session = admin) =>
      call(t.app, session, { method: 'POST', url, payload });
    const notified = async () =>
      (await t.db.selectFrom('notifications').select(['user_id', 'title', 'message']).execute()).sort(
        (a, b) => a.user_id.localeCompare(b.user_id),
      );

    it('needs management-message-c for a platform message and api-message-c for an API message', async () => {
      const plain = await signInNewUser(t.app, t.db);
      const message = { channel: 'PORTAL', title: 'Hi', text: 'Hello', recipient: { role_value: ['USER'] } };
      expect((await send(message, '/messages', plain.session)).statusCode).toBe(403);
      const api = await createApi(t.db);
      const toConsumers = { ...message, recipient: { role_scope: 'APPLICATION', role_value: ['OWNER'] } };
      expect((await send(toConsumers, `/apis/${api.id}/messages`, plain.session)).statusCode).toBe(403);
      await grantRoleOn(t.db, plain.user.id, 'API', api.id, 'OWNER');
      expect((await send(toConsumers, `/apis/${api.id}/messages`, plain.session)).statusCode).toBe(200);
      expect((await send(toConsumers, '/apis/unknown/messages')).statusCode).toBe(404);
      const anonymous = await t.app.inject({ method: 'POST', url: '/management/messages', payload: message });
      expect(anonymous.statusCode).toBe(401);
    });

    it('refuses an incomplete message, naming the field, and sends nothing', async () => {
      const cases: [object, string][] = [
        [{ title: 't', text: 'x', recipient: { role_value: ['USER'] } }, 'channel'],
        [{ channel: 'SMS', title: 't', text: 'x', recipient: { role_value: ['USER'] } }, 'channel'],
        [{ channel: 'PORTAL', title: 't', text: ' ', recipient: { role_value: ['USER'] } }, 'text'],
        [{ channel: 'MAIL', text: 'x', recipient: { role_value: ['USER'] } }, 'title'],
        [{ channel: 'PORTAL', title: 't', text: 'x', recipient: { role_value: [] } }, 'recipient.role_value'],
        [
          { channel: 'PORTAL', title: 't', text: 'x', recipient: { role_value: ['NOBODY'] } },
          'recipient.role_value',
        ],
        [
          {
            channel: 'PORTAL',
            title: 't',
            text: 'x',
            recipient: { role_scope: 'API', role_value: ['OWNER'] },
          },
          'recipient.role_scope',
        ],
        [{ channel: 'HTTP', text: 'x', recipient: {} }, 'recipient.url'],
        [{ channel: 'HTTP', text: 'x', recipient: { url: 'ftp://example.com/' } }, 'recipient.url'],
        [
          { channel: 'HTTP', text: 'x', recipient: { url: `${receiver.url}/` }, params: { 'bad name': 'v' } },
          'params',
        ],
        [
          { channel: 'PORTAL', title: 't', text: 'x'.repeat(10_001), recipient: { role_value: ['USER'] } },
          'text',
        ],
      ];
      for (const [payload, field] of cases) {
        const res = await send(payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody(field));
      }
      expect(await notified()).toEqual([]);
      expect(receiver.received).toEqual([]);
    });

    it('tells every active holder of the role in the app, the default role included, and answers the count', async () => {
      const plainA = await createUser(t.db);
      const plainB = await createUser(t.db);
      const inactive = await createUser(t.db, { status: 'PENDING' });
      const reviewer = await createUser(t.db);
      await grantPlatformRole(t.db, reviewer.id, 'MANAGEMENT', 'API_PUBLISHER');
      const res = await send({
        channel: 'PORTAL',
        title: 'Maintenance',
        text: 'The portal stops tonight',
        recipient: { role_scope: 'MANAGEMENT', role_value: ['USER'] },
      });
      expect(res.statusCode).toBe(200);
      const told = (await notified()).map((n) => n.user_id);
      expect(res.json()).toBe(told.length);
      expect(told).toEqual(expect.arrayContaining([plainA.id, plainB.id]));
      expect(told).not.toContain(inactive.id);
      expect(told).not.toContain(reviewer.id);
      expect(told).not.toContain(admin.userId); // an ADMIN does not hold the USER role

      const publishers = await send({
        channel: 'PORTAL',
        title: 'To publishers',
        text: 'Read this',
        recipient: { role_scope: 'MANAGEMENT', role_value: 'API_PUBLISHER' },
      });
      expect(publishers.json()).toBe(1);
      expect((await notified()).filter((n) => n.title === 'To publishers')).toEqual([
        { user_id: reviewer.id, title: 'To publishers', message: 'Read this' },
      ]);
      const audit = await t.db
        .selectFrom('audits')
        .select(['reference_type', 'event'])
        .where('event', '=', 'MESSAGE_SENT')
        .execute();
      expect(audit.length).toBeGreaterThanOrEqual(2);
    });

    it("mails the members of the API's accepted consumers, directly or through the application's group", async () => {
      const api = await createApi(t.db, { name: 'Weather', version: '2.1' });
      const plan = await createPlan(t.db, api.id);
      const group = await createGroup(t.db);
      const accepted = await createApplication(t.db, { groups: [group.id] });
      const pending = await createApplication(t.db);
      await createSubscription(t.db, plan, accepted, { status: 'ACCEPTED' });
      await createSubscription(t.db, plan, pending, { status: 'PENDING' });
      const owner = await createUser(t.db, { email: 'owner@shop.test' });
      const viaGroup = await createUser(t.db, { email: 'group@shop.test' });
      const waiting = await createUser(t.db, { email: 'waiting@shop.test' });
      const noMail = await createUser(t.db, { email: null });
      await grantRoleOn(t.db, owner.id, 'APPLICATION', accepted.id, 'OWNER');
      await grantRoleOn(t.db, noMail.id, 'APPLICATION', accepted.id, 'OWNER');
      await grantRoleThroughGroup(t.db, viaGroup.id, group.id, 'APPLICATION', 'OWNER');
      await grantRoleOn(t.db, waiting.id, 'APPLICATION', pending.id, 'OWNER');

      const res = await send(
        {
          channel: 'MAIL',
          title: '${api.name} changes',
          text: 'Version ${api.version} of ${api.name} is coming',
          recipient: { role_scope: 'APPLICATION', role_value: ['OWNER'] },
        },
        `/apis/${api.id}/messages`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toBe(2);
      expect(smtp.received).toEqual([]); // queued, sent off the request path
      expect(await t.services.scheduler.tick()).toBe(true);
      const mails = smtp.received.map((m) => ({
        to: (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value.map((v) => v.address)),
        subject: m.subject,
        text: m.text?.trim(),
      }));
      expect(mails.sort((a, b) => String(a.to[0]).localeCompare(String(b.to[0])))).toEqual([
        {
          to: ['group@shop.test'],
          subject: expect.stringContaining('Weather changes'),
          text: 'Version 2.1 of Weather is coming',
        },
        {
          to: ['owner@shop.test'],
          subject: expect.stringContaining('Weather changes'),
          text: 'Version 2.1 of Weather is coming',
        },
      ]);
    });

    it('posts an HTTP message with its headers through the outbound guard, the system proxy when asked, and reports a refusal', async () => {
      const ok = await send({
        channel: 'HTTP',
        text: 'Deploy done',
        recipient: { url: `${receiver.url}/hook` },
        params: { 'X-Team': 'ops', '': 'dropped' },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toBe(1);
      expect(receiver.received).toEqual([
        {
          path: '/hook',
          headers: expect.objectContaining({ 'x-team': 'ops' }) as unknown,
          body: 'Deploy done',
        },
      ]);

      expect(proxy.targets).toEqual([]); // useSystemProxy not set: direct

      const proxied = await send({
        channel: 'HTTP',
        text: 'Through the proxy',
        recipient: { url: `${receiver.url}/proxied` },
        useSystemProxy: true,
      });
      expect(proxied.statusCode).toBe(200);
      expect(proxy.targets).toEqual([new URL(receiver.url).host]);
      expect(receiver.received.at(-1)).toMatchObject({ path: '/proxied', body: 'Through the proxy' });
      proxy.targets.length = 0;

      receiver.status = 500;
      const failed = await send({ channel: 'HTTP', text: 'x', recipient: { url: `${receiver.url}/hook` } });
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toMatch(/answered HTTP 500/);

      const refused = await send({ channel: 'HTTP', text: 'x', recipient: { url: 'http://127.0.0.2:9/' } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(invalidFieldBody('recipient.url', 'The URL could not be fetched.'));
    });
  });
}
