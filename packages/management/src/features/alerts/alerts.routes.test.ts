import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NewRequestRow } from '@portico/storage';
import { insertHealthChecks, insertNotificationSetting, insertRequestBatch } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestReceiver, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createApplication,
  createPlan,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startReceiver,
  startTestApp,
} from '../../test-support/index.js';

/** A webhook receiver: a real local HTTP server keeping what it was sent. */
let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

let serial = 0;
const request = (
  apiId: string,
  status: number,
  timestamp: number,
  plan: string | null = null,
): NewRequestRow => {
  const id = `r-${serial++}-${Math.random()}`;
  return {
    ...{
      id,
      transaction_id: id,
      timestamp,
      gateway: 'gw',
      api_id: apiId,
      application_id: null,
      plan_id: plan,
    },
    ...{ subscription_id: null, api_key: null, user: null, tenant: null, method: 'GET', path: '/', uri: '/' },
    ...{ mapped_path: null, host: null, status, request_content_length: 0, response_content_length: 0 },
    ...{ response_time: 5, api_response_time: 4, latency: 1, endpoint: null, remote_address: null },
    ...{ user_agent: null, security_type: null, error_key: null, message: null, has_log: 0 },
  };
};

for (const dialect of await testDialects()) {
  describe(`${dialect}: alerts of APIs, applications and the platform`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect, {
        options: { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] }, schedulerTickMs: 0 },
      });
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());
    beforeEach(() => {
      receiver.received.length = 0;
    });

    const errorRate = {
      name: 'Errors',
      metricType: 'STATUS_5XX',
      thresholdType: 'percent_rate',
      threshold: 50,
    };

    it('lists the metrics an alert may watch, with their threshold types', async () => {
      const res = await call(t.app, admin, { method: 'GET', url: '/alerts/metrics' });
      expect(res.json()).toEqual(
        expect.arrayContaining([
          {
            key: 'STATUS_5XX',
            description: 'Server errors (5xx)',
            type: 'request',
            thresholds: [
              { key: 'percent_rate', description: 'Percent rate' },
              { key: 'count', description: 'Count' },
            ],
          },
          expect.objectContaining({ key: 'HEALTH_CHECK_FAILURE', type: 'health_check' }),
        ]),
      );
    });

    it('creates, lists, changes and deletes the alerts of each scope', async () => {
      const api = await createApi(t.db);
      const application = await createApplication(t.db);
      for (const url of [
        `/apis/${api.id}/alerts`,
        `/applications/${application.id}/alerts`,
        '/configuration/alerts',
      ]) {
        const created = await call(t.app, admin, {
          method: 'POST',
          url,
          payload: { ...errorRate, type: 'REQUEST' },
        });
        expect(created.statusCode, created.body).toBe(201);
        const alert = created.json();
        expect(alert).toMatchObject({
          name: 'Errors',
          enabled: true,
          type: 'request',
          metricType: 'STATUS_5XX',
          thresholdType: 'percent_rate',
          threshold: 50,
        });
        expect((await call(t.app, admin, { method: 'GET', url })).json()).toEqual([alert]);
        const changed = await call(t.app, admin, {
          method: 'PUT',
          url: `${url}/${alert.id}`,
          payload: { ...errorRate, thresholdType: 'COUNT', threshold: 1000, enabled: false },
        });
        expect(changed.json()).toMatchObject({ thresholdType: 'count', threshold: 1000, enabled: false });
        expect((await call(t.app, admin, { method: 'DELETE', url: `${url}/${alert.id}` })).statusCode).toBe(
          204,
        );
        expect((await call(t.app, admin, { method: 'GET', url })).json()).toEqual([]);
      }
      const other = await call(t.app, admin, {
        method: 'POST',
        url: `/apis/${api.id}/alerts`,
        payload: errorRate,
      });
      const elsewhere = await createApi(t.db);
      const wrong = await call(t.app, admin, {
        method: 'DELETE',
        url: `/apis/${elsewhere.id}/alerts/${other.json().id}`,
      });
      expect(wrong.statusCode).toBe(404);
      expect((await call(t.app, admin, { method: 'GET', url: '/apis/nothing/alerts' })).statusCode).toBe(404);
    });

    it('refuses an alert breaking the rules, naming the field', async () => {
      const api = await createApi(t.db);
      const application = await createApplication(t.db);
      const otherPlan = await createPlan(t.db, (await createApi(t.db)).id);
      const cases: [string, object, string][] = [
        [`/apis/${api.id}/alerts`, { ...errorRate, name: ' ' }, 'name'],
        [`/apis/${api.id}/alerts`, { ...errorRate, metricType: undefined }, 'metricType'],
        [`/apis/${api.id}/alerts`, { ...errorRate, metricType: 'HEALTH_CHECK_FAILURE' }, 'metricType'],
        [`/apis/${api.id}/alerts`, { ...errorRate, thresholdType: 'ratio' }, 'thresholdType'],
        [`/apis/${api.id}/alerts`, { ...errorRate, threshold: 101 }, 'threshold'],
        [
          `/apis/${api.id}/alerts`,
          { ...errorRate, thresholdType: 'count', threshold: 1_000_001 },
          'threshold',
        ],
        [`/apis/${api.id}/alerts`, { ...errorRate, threshold: null }, 'threshold'],
        [`/apis/${api.id}/alerts`, { ...errorRate, plan: otherPlan.id }, 'plan'],
        [
          `/applications/${application.id}/alerts`,
          { ...errorRate, type: 'health_check', metricType: 'HEALTH_CHECK_FAILURE' },
          'type',
        ],
      ];
      for (const [url, payload, field] of cases) {
        const res = await call(t.app, admin, { method: 'POST', url, payload });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody(field));
      }
      expect((await call(t.app, admin, { method: 'GET', url: `/apis/${api.id}/alerts` })).json()).toEqual([]);
    });

    it('needs the alert permissions of the scope', async () => {
      const api = await createApi(t.db);
      const user = await signInNewUser(t.app, t.db);
      const post = () =>
        call(t.app, user.session, { method: 'POST', url: `/apis/${api.id}/alerts`, payload: errorRate });
      expect((await post()).statusCode).toBe(403);
      expect(
        (await call(t.app, user.session, { method: 'GET', url: '/configuration/alerts' })).statusCode,
      ).toBe(403);
      await grantRoleOn(t.db, user.user.id, 'API', api.id, 'OWNER');
      expect((await post()).statusCode).toBe(201);
    });

    it('triggers above the threshold, stays quiet below it, resolves, and tells the scope', async () => {
      const api = await createApi(t.db, { name: 'Payments' });
      await insertNotificationSetting(t.db, {
        ...{ id: `w-${Math.random()}`, name: 'Ops', config_type: 'GENERIC', reference_type: 'API' },
        ...{
          reference_id: api.id,
          user_id: null,
          notifier: 'default-webhook',
          config: `${receiver.url}/alerts`,
        },
        ...{ use_system_proxy: 0, hooks: JSON.stringify(['ALERT']), created_at: 0, updated_at: 0 },
      });
      const url = `/apis/${api.id}/alerts`;
      const loud = (await call(t.app, admin, { method: 'POST', url, payload: errorRate })).json();
      const quiet = (
        await call(t.app, admin, {
          method: 'POST',
          url,
          payload: { ...errorRate, name: 'Quiet', threshold: 70 },
        })
      ).json();
      const now = t.clock.peek();
      const statuses = [500, 502, 503, 500, 500, 500, 200, 200, 200, 200]; // 60% errors
      await insertRequestBatch(
        t.db,
        statuses.map((s, i) => request(api.id, s, now - 1000 * (i + 1))),
        [],
      );
      await insertRequestBatch(t.db, [request(api.id, 500, now - 20 * 60_000)], []); // outside the window

      await t.services.scheduler.tick();
      const state = async (id: string) =>
        (await call(t.app, admin, { method: 'GET', url })).json().find((a: { id: string }) => a.id === id)
          .state;
      expect(await state(loud.id)).toBe('TRIGGERED');
      expect(await state(quiet.id)).toBe('OK');
      await t.services.scheduler.tick(); // the webhook goes out on the next pass
      const received = () => receiver.json<{ event: string; message: string }>();
      expect(received()).toEqual([
        expect.objectContaining({
          event: 'ALERT',
          message:
            'The alert Errors of the API Payments triggered: Server errors (5xx) reached 60% over the last 5 minutes (threshold 50%).',
        }),
      ]);
      const history = await call(t.app, admin, { method: 'GET', url: `${url}/${loud.id}/events` });
      expect(history.json()).toMatchObject({
        totalElements: 1,
        content: [{ state: 'TRIGGERED', value: 60, threshold: 50 }],
      });
      expect(
        (await call(t.app, admin, { method: 'GET', url: `${url}/${quiet.id}/events` })).json().totalElements,
      ).toBe(0);

      // Six minutes later the errors are out of the window: resolved once.
      t.clock.advance(6 * 60_000);
      await t.services.scheduler.tick();
      await t.services.scheduler.tick();
      expect(await state(loud.id)).toBe('OK');
      const after = (await call(t.app, admin, { method: 'GET', url: `${url}/${loud.id}/events` })).json();
      expect(after.content.map((e: { state: string }) => e.state)).toEqual(['RESOLVED', 'TRIGGERED']);
      expect(received().map((r) => r.message)).toEqual([
        expect.stringContaining('triggered'),
        expect.stringContaining('is resolved'),
      ]);
    });

    it("measures an application's requests, the platform's, and one plan of an API; tells each scope", async () => {
      const hook = (reference_type: string, reference_id: string, path: string) =>
        insertNotificationSetting(t.db, {
          ...{ id: `w-${Math.random()}`, name: 'Ops', config_type: 'GENERIC', reference_type },
          ...{ reference_id, user_id: null, notifier: 'default-webhook', config: `${receiver.url}${path}` },
          ...{ use_system_proxy: 0, hooks: JSON.stringify(['ALERT']), created_at: 0, updated_at: 0 },
        });
      const api = await createApi(t.db, { name: 'Maps' });
      const [mine, other] = [await createApplication(t.db), await createApplication(t.db)];
      const [gold, free] = [await createPlan(t.db, api.id), await createPlan(t.db, api.id)];
      await hook('APPLICATION', mine.id, '/app');
      await hook('PORTAL', 'DEFAULT', '/platform');
      const create = async (url: string, payload: object) => {
        const res = await call(t.app, admin, { method: 'POST', url, payload });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ id: string }>().id;
      };
      const notFound = { metricType: 'STATUS_404', thresholdType: 'count' };
      const appLoud = await create(`/applications/${mine.id}/alerts`, {
        name: 'A',
        ...notFound,
        threshold: 2,
      });
      const appQuiet = await create(`/applications/${mine.id}/alerts`, {
        name: 'B',
        ...notFound,
        threshold: 3,
      });
      const tooMany = { metricType: 'STATUS_429', thresholdType: 'count' };
      const allLoud = await create('/configuration/alerts', { name: 'C', ...tooMany, threshold: 4 });
      const allQuiet = await create('/configuration/alerts', { name: 'D', ...tooMany, threshold: 5 });
      const byPlan = { ...errorRate, threshold: 100 };
      const goldLoud = await create(`/apis/${api.id}/alerts`, { ...byPlan, name: 'E', plan: gold.id });
      const allPlansQuiet = await create(`/apis/${api.id}/alerts`, { ...byPlan, name: 'F' });

      const now = t.clock.peek();
      const of = (application: string, status: number, plan: string | null = null) => ({
        ...request(api.id, status, now - 1000, plan),
        application_id: application,
      });
      const rows = [of(mine.id, 404), of(mine.id, 404), of(mine.id, 429), of(mine.id, 429)];
      rows.push(of(other.id, 404), of(other.id, 404), of(other.id, 429), of(other.id, 429));
      rows.push(of(mine.id, 500, gold.id), of(mine.id, 200, free.id));
      await insertRequestBatch(t.db, rows, []);
      await t.services.scheduler.tick();
      const states = async (url: string) =>
        Object.fromEntries(
          (await call(t.app, admin, { method: 'GET', url }))
            .json()
            .map((a: { id: string; state: string }) => [a.id, a.state]),
        );
      expect(await states(`/applications/${mine.id}/alerts`)).toEqual({
        [appLoud]: 'TRIGGERED',
        [appQuiet]: 'OK',
      });
      expect(await states('/configuration/alerts')).toMatchObject({
        [allLoud]: 'TRIGGERED',
        [allQuiet]: 'OK',
      });
      expect(await states(`/apis/${api.id}/alerts`)).toEqual({
        [goldLoud]: 'TRIGGERED',
        [allPlansQuiet]: 'OK',
      });
      await t.services.scheduler.tick();
      expect(receiver.json<{ message: string }>('/app').map((m) => m.message)).toEqual([
        expect.stringMatching(/^The alert A of the application .* triggered: Not found \(404\) reached 2 /),
      ]);
      expect(receiver.json<{ message: string }>('/platform').map((m) => m.message)).toEqual([
        expect.stringMatching(/^The alert C of the platform triggered: .* reached 4 /),
      ]);
    });

    it('counts failed health checks of an API', async () => {
      const api = await createApi(t.db);
      const created = await call(t.app, admin, {
        method: 'POST',
        url: `/apis/${api.id}/alerts`,
        payload: {
          name: 'Down',
          type: 'health_check',
          metricType: 'HEALTH_CHECK_FAILURE',
          thresholdType: 'count',
          threshold: 2,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const now = t.clock.peek();
      await insertHealthChecks(
        t.db,
        [0, 0, 1].map((success, i) => ({
          ...{ id: `h-${dialect}-${i}-${Math.random()}`, api_id: api.id, endpoint: 'default', gateway: 'gw' },
          ...{
            timestamp: now - 1000 * (i + 1),
            success,
            state: success ? 3 : 0,
            transition: 0,
            response_time: 10,
          },
          ...{ message: null, request: null, response: null },
        })),
      );
      await t.services.scheduler.tick();
      const [alert] = (await call(t.app, admin, { method: 'GET', url: `/apis/${api.id}/alerts` })).json();
      expect(alert).toMatchObject({ state: 'TRIGGERED' });
    });
  });
}
