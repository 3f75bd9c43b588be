import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewHealthCheckRow } from '@portico/storage';
import { insertHealthChecks, insertInstance } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  errorBody,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';

let n = 0;
const row = (apiId: string, at: number, changes: Partial<NewHealthCheckRow> = {}): NewHealthCheckRow => ({
  id: `hc-${apiId}-${n++}`,
  api_id: apiId,
  endpoint: 'default',
  gateway: 'gw-1',
  timestamp: at,
  success: 1,
  state: 3,
  transition: 0,
  response_time: 10,
  message: null,
  request: JSON.stringify({
    method: 'GET',
    uri: 'https://backend.example.com/echo/health',
    headers: { 'x-check': '1' },
    body: null,
  }),
  response: JSON.stringify({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"status":"UP"}',
  }),
  ...changes,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: API health calls`, () => {
    let t: TestApp;
    let admin: TestSession;
    let apiId = '';
    let otherApi = '';
    const now = Date.now();
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      apiId = (await createApiAs(t, admin)).id;
      otherApi = (await createApiAs(t, admin)).id;
      await insertInstance(t.db, {
        id: 'gw-1',
        hostname: 'gateway-one',
        ip: '10.0.0.1',
        port: 8082,
        version: 'test',
        tags: '[]',
        tenant: null,
        plugins: '[]',
        system_properties: '{}',
        operating_system_name: null,
        state: 'STARTED',
        started_at: now - 100_000_000,
        last_heartbeat_at: now,
        stopped_at: null,
        monitoring: null,
        dropped_reports: 0,
      });
      const rows = [
        // Last minute: default 1 ok (10 ms) and 1 failed (30 ms), the failure a transition.
        row(apiId, now - 20_000, { response_time: 10 }),
        row(apiId, now - 10_000, {
          success: 0,
          state: 1,
          transition: 1,
          response_time: 30,
          message: 'Assertion not validated: #response.status == 200',
          response: JSON.stringify({ status: 500, headers: {}, body: 'boom' }),
        }),
        // Last hour (not last minute): default ok on another gateway (50 ms); 'discovered' ok (4 ms).
        row(apiId, now - 600_000, { response_time: 50, gateway: 'gw-gone' }),
        row(apiId, now - 500_000, { endpoint: 'discovered', response_time: 4 }),
        // Last week only: default failed, down, a transition (100 ms).
        row(apiId, now - 3 * 86_400_000, { success: 0, state: 0, transition: 1, response_time: 100 }),
        // Another API's check.
        row(otherApi, now - 1000),
      ];
      rows.forEach((r, i) => (ids[i] = r.id));
      await insertHealthChecks(t.db, rows);
    });
    afterAll(() => t?.close());

    const get = (session: TestSession | undefined, url: string) =>
      call(t.app, session, { method: 'GET', url });

    it('GET health: availability per endpoint over 1m, 1h, 1d, 1w, 1M, their mean and the targets', async () => {
      const res = await get(admin, `/apis/${apiId}/health`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        buckets: {
          default: { '1m': 50, '1h': (2 * 100) / 3, '1d': (2 * 100) / 3, '1w': 50, '1M': 50 },
          discovered: { '1m': -1, '1h': 100, '1d': 100, '1w': 100, '1M': 100 },
        },
        global: { '1m': 50, '1h': (200 / 3 + 100) / 2, '1d': (200 / 3 + 100) / 2, '1w': 75, '1M': 75 },
        metadata: {
          default: { target: 'https://backend.example.com/echo' },
          discovered: { deleted: 'true' },
        },
      });
    });

    it('GET health: response time per gateway, with the hostname and ip of the known ones', async () => {
      const res = await get(admin, `/apis/${apiId}/health?type=RESPONSE_TIME&field=gateway`);
      expect(res.json()).toEqual({
        buckets: {
          'gw-1': { '1m': 20, '1h': 15, '1d': 15, '1w': 36, '1M': 36 },
          'gw-gone': { '1m': -1, '1h': 50, '1d': 50, '1w': 50, '1M': 50 },
        },
        global: { '1m': 20, '1h': 32.5, '1d': 32.5, '1w': 43, '1M': 43 },
        metadata: { 'gw-1': { hostname: 'gateway-one', ip: '10.0.0.1' }, 'gw-gone': { deleted: 'true' } },
      });
      const bad = await get(admin, `/apis/${apiId}/health?type=uptime`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('type');
    });

    it('GET health/average: availability and response time per interval, null where nothing ran', async () => {
      const from = now - 120_000;
      const availability = await get(
        admin,
        `/apis/${apiId}/health/average?from=${from}&to=${now}&interval=60000&type=AVAILABILITY`,
      );
      expect(availability.json()).toEqual({
        timestamp: { from, to: now, interval: 60_000 },
        values: [
          { field: 'available', name: 'by_available', buckets: [{ name: 'available', data: [null, 50] }] },
        ],
      });
      const time = await get(
        admin,
        `/apis/${apiId}/health/average?from=${now - 3_600_000}&to=${now}&interval=1800000`,
      );
      expect(time.json().values[0].buckets[0].data).toEqual([null, Math.round((10 + 30 + 50 + 4) / 4)]);
      const reversed = await get(admin, `/apis/${apiId}/health/average?from=${now}&to=${now - 1}`);
      expect(reversed.json()).toEqual(invalidFieldBody('from', 'from must be before to'));
      const tooFine = await get(admin, `/apis/${apiId}/health/average?from=0&to=${now}&interval=1000`);
      expect(tooFine.json()).toEqual(invalidFieldBody('interval', /at most 10000 buckets/));
    });

    it('GET health/logs: newest first, paged, transitions only, filtered by a query, with gateway metadata', async () => {
      const all = await get(admin, `/apis/${apiId}/health/logs?page=1&size=2`);
      expect(all.json().total).toBe(5);
      expect(all.json().logs.map((l: { id: string }) => l.id)).toEqual([ids[1], ids[0]]);
      expect(all.json().logs[0]).toEqual({
        id: ids[1],
        timestamp: now - 10_000,
        api: apiId,
        endpoint: 'default',
        gateway: 'gw-1',
        responseTime: 30,
        success: false,
        available: true,
        state: 1,
        message: 'Assertion not validated: #response.status == 200',
        request: { method: 'GET', uri: 'https://backend.example.com/echo/health' },
        response: { status: 500 },
      });
      expect(all.json().metadata).toEqual({ 'gw-1': { hostname: 'gateway-one', ip: '10.0.0.1' } });
      const page3 = await get(admin, `/apis/${apiId}/health/logs?page=3&size=2`);
      expect(page3.json().logs.map((l: { id: string }) => l.id)).toEqual([ids[4]]);
      const transitions = await get(admin, `/apis/${apiId}/health/logs?transition=true`);
      expect(transitions.json().logs.map((l: { id: string }) => l.id)).toEqual([ids[1], ids[4]]);
      const query = await get(
        admin,
        `/apis/${apiId}/health/logs?query=${encodeURIComponent('endpoint:default AND success:false')}`,
      );
      expect(query.json().logs.map((l: { id: string }) => l.id)).toEqual([ids[1], ids[4]]);
      const unknown = await get(admin, `/apis/${apiId}/health/logs?query=status:500`);
      expect(unknown.json()).toEqual(invalidFieldBody('query', 'Unknown field [status]'));
      const tooBig = await get(admin, `/apis/${apiId}/health/logs?size=101`);
      expect(tooBig.statusCode).toBe(400);
      expect(tooBig.json().message).toContain('size');
    });

    it("GET health/logs/{logId}: the request and response of one check; another API's is 404", async () => {
      const res = await get(admin, `/apis/${apiId}/health/logs/${ids[1]}`);
      expect(res.json()).toMatchObject({
        id: ids[1],
        request: {
          method: 'GET',
          uri: 'https://backend.example.com/echo/health',
          headers: { 'x-check': '1' },
          body: null,
        },
        response: { status: 500, headers: {}, body: 'boom' },
      });
      expect((await get(admin, `/apis/${apiId}/health/logs/${ids[5]}`)).statusCode).toBe(404);
      expect((await get(admin, `/apis/${apiId}/health/logs/nope`)).statusCode).toBe(404);
      expect((await get(admin, `/apis/missing-api/health`)).statusCode).toBe(404);
    });

    it('needs api-health-r on the API for every health call', async () => {
      const reviewer = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, reviewer.user.id, 'API', apiId, 'REVIEWER');
      const user = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, user.user.id, 'API', apiId, 'USER');
      for (const path of ['health', 'health/average', 'health/logs', `health/logs/${ids[0]}`]) {
        expect((await get(reviewer.session, `/apis/${apiId}/${path}`)).statusCode).toBe(200);
        const refused = await get(user.session, `/apis/${apiId}/${path}`);
        expect(refused.json()).toEqual(errorBody(403, 'You do not have the permission api-health-r'));
        // A reviewer of one API reads nothing of another.
        expect((await get(reviewer.session, `/apis/${otherApi}/${path}`)).statusCode).toBe(403);
        expect((await get(undefined, `/apis/${apiId}/${path}`)).statusCode).toBe(401);
      }
    });
  });
}
