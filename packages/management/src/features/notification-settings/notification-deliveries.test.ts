import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findNotificationsOfUser, insertNotificationSetting } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestProxy, TestSession, TestSmtpServer } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createPlan,
  createSubscription,
  createUser,
  login,
  startProxy,
  startSmtpServer,
  startTestApp,
} from '../../test-support/index.js';
import { createOutboundPolicy } from '@portico/outbound';
import {
  DELIVERY_CLAIM_MS,
  FIRST_RETRY_MS,
  MAX_DELIVERY_ATTEMPTS,
  notificationDeliveriesJob,
} from './notification-deliveries.job.js';

/** A webhook receiver: a real local HTTP server answering with the status each test sets. */
const received: { path: string; body: unknown }[] = [];
let status = 200;
/** While set, the receiver holds its answers until it resolves (a webhook that is slow to answer). */
let hold: Promise<void> | undefined;
const receiver = http.createServer((req, res) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => {
    received.push({ path: req.url ?? '', body: JSON.parse(text) as unknown });
    void (hold ?? Promise.resolve()).then(() => res.writeHead(status).end());
  });
});
let base = '';
let smtp: TestSmtpServer;
/** The installation's system proxy, used by the settings that ask for it. */
let proxy: TestProxy;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  [smtp, proxy] = await Promise.all([startSmtpServer(), startProxy()]);
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await Promise.all([smtp.close(), proxy.close()]);
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: notification settings deliver events`, () => {
    let t: TestApp;
    let admin: TestSession;
    let apiId: string;
    let adminId: string;

    beforeAll(async () => {
      t = await startTestApp(dialect, {
        options: {
          outbound: { allowPrivate: false, allowed: ['127.0.0.1'], proxy: proxy.url },
          schedulerTickMs: 0,
          smtpUrl: smtp.url,
        },
      });
      admin = await login(t.app, 'admin', 'admin');
      adminId = (
        await t.db.selectFrom('users').select('id').where('source_id', '=', 'admin').executeTakeFirstOrThrow()
      ).id;
    });
    afterAll(() => t?.close());
    beforeEach(async () => {
      received.length = 0;
      smtp.received.length = 0;
      status = 200;
      apiId = (await createApi(t.db)).id;
    });

    const setting = (notifier: string, config: string, hooks: string[]) =>
      insertNotificationSetting(t.db, {
        ...{ id: `s-${Math.random()}`, name: 'n', config_type: 'GENERIC', reference_type: 'API' },
        ...{ reference_id: apiId, user_id: null, notifier, config, use_system_proxy: 0 },
        ...{ hooks: JSON.stringify(hooks), created_at: 0, updated_at: 0 },
      });

    /** Accepts a pending subscription to the API through the HTTP call. */
    async function acceptSubscription() {
      const plan = await createPlan(t.db, apiId);
      const application = await createApplication(t.db);
      const s = await createSubscription(t.db, plan, application);
      const res = await call(t.app, admin, {
        method: 'POST',
        url: `/apis/${apiId}/subscriptions/${s.id}/_process`,
        payload: { accepted: true },
      });
      expect(res.statusCode).toBe(200);
      return { s, application };
    }
    const deliveries = () =>
      t.db.selectFrom('notification_deliveries').selectAll().orderBy('created_at').execute();

    it('posts the JSON payload to a WEBHOOK setting, off the request path, through the outbound guard', async () => {
      await setting('default-webhook', `${base}/hook`, ['SUBSCRIPTION_ACCEPTED']);
      const { s, application } = await acceptSubscription();
      expect(received).toEqual([]); // nothing sent by the request itself
      expect(await t.services.scheduler.tick()).toBe(true);
      expect(received).toEqual([
        {
          path: '/hook',
          body: expect.objectContaining({
            event: 'SUBSCRIPTION_ACCEPTED',
            scope: 'API',
            title: 'Subscription accepted',
            api: expect.objectContaining({ id: apiId }),
            application: expect.objectContaining({ id: application.id }),
            subscription: { id: s.id, status: 'ACCEPTED' },
          }),
        },
      ]);
      const rows = (await deliveries()).filter((d) => d.hook === 'SUBSCRIPTION_ACCEPTED');
      expect(rows).toEqual([expect.objectContaining({ status: 'SENT', attempts: 1, last_error: null })]);
    });

    it('a WEBHOOK setting with useSystemProxy goes through the system proxy; one without goes direct', async () => {
      proxy.targets.length = 0;
      await setting('default-webhook', `${base}/direct`, ['SUBSCRIPTION_ACCEPTED']);
      await insertNotificationSetting(t.db, {
        ...{ id: `x-${Math.random()}`, name: 'n', config_type: 'GENERIC', reference_type: 'API' },
        ...{ reference_id: apiId, user_id: null, notifier: 'default-webhook', config: `${base}/proxied` },
        ...{ use_system_proxy: 1, hooks: '["SUBSCRIPTION_ACCEPTED"]', created_at: 0, updated_at: 0 },
      });
      await acceptSubscription();
      await t.services.scheduler.tick();
      expect(received.map((r) => r.path).sort()).toEqual(['/direct', '/proxied']);
      expect(proxy.targets).toEqual([new URL(base).host]);
    });

    it('retries a failing webhook with backoff, then records it as FAILED with the last error', async () => {
      await t.db.deleteFrom('notification_deliveries').execute();
      status = 503;
      await setting('default-webhook', `${base}/down`, ['SUBSCRIPTION_ACCEPTED']);
      await acceptSubscription();
      await t.services.scheduler.tick();
      expect(await deliveries()).toEqual([
        expect.objectContaining({
          status: 'PENDING',
          attempts: 1,
          last_error: 'the webhook answered HTTP 503',
        }),
      ]);
      await t.services.scheduler.tick(); // not due yet
      expect(received).toHaveLength(1);
      for (let i = 1; i < MAX_DELIVERY_ATTEMPTS; i++) {
        t.clock.advance(FIRST_RETRY_MS * 2 ** (i - 1));
        await t.services.scheduler.tick();
      }
      expect(received).toHaveLength(MAX_DELIVERY_ATTEMPTS);
      expect(await deliveries()).toEqual([
        expect.objectContaining({
          status: 'FAILED',
          attempts: MAX_DELIVERY_ATTEMPTS,
          last_error: 'the webhook answered HTTP 503',
        }),
      ]);
      t.clock.advance(3600_000);
      await t.services.scheduler.tick();
      expect(received).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    });

    it('a second process running the job while a webhook is being sent does not send it again', async () => {
      await t.db.deleteFrom('notification_deliveries').execute();
      await setting('default-webhook', `${base}/slow`, ['SUBSCRIPTION_ACCEPTED']);
      await acceptSubscription();
      // Two management processes' jobs on one database (the scheduler lease moved between them).
      const job = () =>
        notificationDeliveriesJob({
          ...{ db: t.db, mail: t.services.mail, now: () => t.clock.now() },
          ...{ policy: createOutboundPolicy({ allowed: ['127.0.0.1'] }), log: { warn: () => undefined } },
        });
      let answer!: () => void;
      hold = new Promise((resolve) => (answer = resolve));
      try {
        const first = job().run();
        await expect.poll(() => received.length).toBe(1);
        await job().run(); // finds nothing due: the first holds the delivery
        expect(received).toHaveLength(1);
        answer();
        await first;
      } finally {
        hold = undefined;
      }
      expect(await deliveries()).toEqual([expect.objectContaining({ status: 'SENT', attempts: 1 })]);
      t.clock.advance(DELIVERY_CLAIM_MS);
      await job().run();
      expect(received).toHaveLength(1);
    });

    it('a webhook to an address the outbound policy refuses fails without being called', async () => {
      await t.db.deleteFrom('notification_deliveries').execute();
      await setting('default-webhook', 'http://10.0.0.1:9/x', ['SUBSCRIPTION_ACCEPTED']);
      await acceptSubscription();
      await t.services.scheduler.tick();
      const [row] = await deliveries();
      expect(row).toMatchObject({ status: 'PENDING', attempts: 1, last_error: expect.stringMatching(/./) });
    });

    it('mails an EMAIL setting through the SMTP server', async () => {
      await setting('default-email', 'ops@example.com; owner@example.com', ['SUBSCRIPTION_ACCEPTED']);
      await acceptSubscription();
      smtp.received.length = 0; // the mails of the existing subscription notices
      await t.services.scheduler.tick();
      const mail = smtp.received.find((m) => m.subject?.includes('Subscription accepted'));
      expect(mail?.to).toBeDefined();
      const to = [mail!.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);
      expect(to).toEqual(['ops@example.com', 'owner@example.com']);
      expect(mail!.text).toContain('has been accepted');
    });

    it('a PORTAL setting gives its user an in-app notification; hooks not chosen are not delivered', async () => {
      const user = await createUser(t.db);
      await insertNotificationSetting(t.db, {
        ...{
          id: `p-${Math.random()}`,
          name: 'Portal Notification',
          config_type: 'PORTAL',
          reference_type: 'API',
        },
        ...{ reference_id: apiId, user_id: user.id, notifier: null, config: null, use_system_proxy: 0 },
        ...{ hooks: JSON.stringify(['SUBSCRIPTION_ACCEPTED']), created_at: 0, updated_at: 0 },
      });
      await setting('default-webhook', `${base}/other`, ['SUBSCRIPTION_REJECTED']);
      await acceptSubscription();
      const { rows } = await findNotificationsOfUser(t.db, user.id, { offset: 0, limit: 10 });
      expect(rows).toEqual([expect.objectContaining({ title: 'Subscription accepted' })]);
      await t.services.scheduler.tick();
      expect(received.filter((r) => r.path === '/other')).toEqual([]);
    });

    it('a new API and a new application tell their primary owner in the app of every hook, once', async () => {
      const api = await call(t.app, admin, {
        method: 'POST',
        url: '/apis',
        payload: {
          name: 'Weather',
          version: '1',
          description: 'd',
          context_path: '/weather-notified',
          endpoint: 'https://weather.example.com',
        },
      });
      expect(api.statusCode).toBe(201);
      const apiSettings = await call(t.app, admin, {
        method: 'GET',
        url: `/apis/${api.json().id}/notificationsettings`,
      });
      expect(apiSettings.json()).toEqual([
        expect.objectContaining({
          config_type: 'PORTAL',
          user: adminId,
          hooks: expect.arrayContaining(['API_STARTED', 'SUBSCRIPTION_NEW']),
        }),
      ]);
      const app = await call(t.app, admin, {
        method: 'POST',
        url: '/applications',
        payload: { name: 'Mine', description: 'd' },
      });
      expect(app.statusCode).toBe(201);
      const appId = app.json().id as string;
      const appSettings = await call(t.app, admin, {
        method: 'GET',
        url: `/applications/${appId}/notificationsettings`,
      });
      expect(appSettings.json()).toEqual([
        expect.objectContaining({
          config_type: 'PORTAL',
          user: adminId,
          hooks: expect.arrayContaining(['SUBSCRIPTION_ACCEPTED']),
        }),
      ]);
      // The owner, already told by the subscription notice, is not told a second time.
      const plan = await createPlan(t.db, apiId);
      const application = (await t.db
        .selectFrom('applications')
        .selectAll()
        .where('id', '=', appId)
        .executeTakeFirst())!;
      const sub = await createSubscription(t.db, plan, application);
      await t.db.deleteFrom('notifications').execute();
      const res = await call(t.app, admin, {
        method: 'POST',
        url: `/apis/${apiId}/subscriptions/${sub.id}/_process`,
        payload: { accepted: true },
      });
      expect(res.statusCode).toBe(200);
      const { rows } = await findNotificationsOfUser(t.db, adminId, { offset: 0, limit: 10 });
      expect(rows.map((r) => r.title)).toEqual(['Subscription accepted']);
    });

    it('pausing and closing a subscription are told to a WEBHOOK setting of its API', async () => {
      await setting('default-webhook', `${base}/life`, ['SUBSCRIPTION_PAUSED', 'SUBSCRIPTION_CLOSED']);
      const { s } = await acceptSubscription();
      for (const status of ['PAUSED', 'CLOSED']) {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions/${s.id}/status?status=${status}`,
        });
        expect(res.statusCode).toBe(200);
      }
      await t.services.scheduler.tick();
      expect(
        received.filter((r) => r.path === '/life').map((r) => (r.body as { event: string }).event),
      ).toEqual(['SUBSCRIPTION_PAUSED', 'SUBSCRIPTION_CLOSED']);
    });

    it('starting and stopping an API are told to its WEBHOOK setting', async () => {
      await setting('default-webhook', `${base}/state`, ['API_STARTED', 'API_STOPPED']);
      for (const action of ['START', 'STOP']) {
        const res = await call(t.app, admin, { method: 'POST', url: `/apis/${apiId}?action=${action}` });
        expect(res.statusCode, res.body).toBe(204);
      }
      await t.services.scheduler.tick();
      expect(received.filter((r) => r.path === '/state').map((r) => r.body)).toEqual([
        expect.objectContaining({
          event: 'API_STARTED',
          title: 'API started',
          api: expect.objectContaining({ id: apiId }),
        }),
        expect.objectContaining({ event: 'API_STOPPED', title: 'API stopped' }),
      ]);
    });

    it('a user registering is told to the platform settings: in the app and by webhook', async () => {
      await insertNotificationSetting(t.db, {
        ...{ id: `w-${Math.random()}`, name: 'Ops', config_type: 'GENERIC', reference_type: 'PORTAL' },
        ...{ reference_id: 'DEFAULT', user_id: null, notifier: 'default-webhook', config: `${base}/users` },
        ...{ use_system_proxy: 0, hooks: JSON.stringify(['USER_CREATED']), created_at: 0, updated_at: 0 },
      });
      const saved = await call(t.app, admin, {
        method: 'PUT',
        url: '/configuration/notificationsettings',
        payload: { config_type: 'PORTAL', hooks: ['USER_CREATED'] },
      });
      expect(saved.statusCode).toBe(200);
      await t.db.deleteFrom('notifications').execute();
      const res = await call(t.app, undefined, {
        method: 'POST',
        url: '/users/registration',
        payload: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const { rows } = await findNotificationsOfUser(t.db, adminId, { offset: 0, limit: 10 });
      expect(rows).toEqual([
        expect.objectContaining({
          title: 'User created',
          message: 'The user Ada Lovelace has been created.',
        }),
      ]);
      await t.services.scheduler.tick();
      expect(received.filter((r) => r.path === '/users').map((r) => r.body)).toEqual([
        expect.objectContaining({
          event: 'USER_CREATED',
          scope: 'PORTAL',
          user: expect.objectContaining({ email: 'ada@example.com' }),
        }),
      ]);
    });
  });
}
