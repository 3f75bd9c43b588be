import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { RequestRow } from '@portico/storage';
import { insertRole } from '@portico/storage';
import { call, grantRoleOn, signInNewUser } from '../../test-support/index.js';
import type { KnownTraffic } from './test-support/known-traffic.js';
import { driveKnownTraffic } from './test-support/known-traffic.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: analytics of known traffic through a real gateway`, () => {
    let k: KnownTraffic;
    let rows: RequestRow[];
    beforeAll(async () => {
      k = await driveKnownTraffic(dialect);
      rows = await k.t.db.selectFrom('requests').selectAll().execute();
    });
    afterAll(() => k?.close());

    const get = async (url: string) => {
      const res = await call(k.t.app, k.admin.session, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const window = () => `from=${k.from}&to=${k.to}`;
    const hits = async (scope: string, query = '') =>
      (await get(`/${scope}/analytics?type=count&${window()}&query=${encodeURIComponent(query)}`))
        .hits as number;

    it('the gateway reported every request once', () => {
      expect(rows).toHaveLength(10);
    });

    it('counts the hits of an API, an application and the platform', async () => {
      expect(await hits(`apis/${k.pets.id}`)).toBe(7);
      expect(await hits(`apis/${k.orders.id}`)).toBe(3);
      expect(await hits(`applications/${k.alpha.id}`)).toBe(4);
      expect(await hits(`applications/${k.beta.id}`)).toBe(3);
      expect(await hits('platform')).toBe(10);
    });

    it('shows a platform user only the APIs where they may read analytics', async () => {
      await insertRole(k.t.db, {
        ...{ scope: 'MANAGEMENT', name: 'MONITOR', description: null, is_default: 0, is_system: 0 },
        ...{ permissions: JSON.stringify({ PLATFORM: ['R'] }), created_at: 0, updated_at: 0 },
      });
      const monitor = await signInNewUser(k.t.app, k.t.db, { management: 'MONITOR' });
      await grantRoleOn(k.t.db, monitor.user.id, 'API', k.pets.id, 'REVIEWER');
      const res = await call(k.t.app, monitor.session, {
        method: 'GET',
        url: `/platform/analytics?type=group_by&field=api&${window()}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().values).toEqual({ [k.pets.id]: 7 });
    });

    it('q selects exactly the expected requests: field:value, ranges, AND/OR/NOT, wildcards, escapes', async () => {
      const { ids } = k;
      const selected = async (query: string) => {
        const body = await get(
          `/apis/${k.pets.id}/logs?${window()}&size=100&query=${encodeURIComponent(query)}`,
        );
        const other = await get(
          `/apis/${k.orders.id}/logs?${window()}&size=100&query=${encodeURIComponent(query)}`,
        );
        return [...body.logs, ...other.logs].map((l: { id: string }) => l.id).sort();
      };
      const sorted = (...list: (string | string[])[]) => list.flat().sort();
      expect(await selected('status:[500 TO 599]')).toEqual([ids.betaFailure]);
      expect(await selected('status:[400 TO *]')).toEqual(sorted(ids.betaFailure, ids.ordersMissing));
      expect(await selected(`application:${k.beta.id} AND NOT status:503`)).toEqual(sorted(ids.betaPosts));
      expect(await selected(`application:${k.alpha.id} OR status:404`)).toEqual(
        sorted(ids.alphaGets, ids.ordersMissing),
      );
      expect(await selected('method:POST')).toEqual(sorted(ids.betaPosts));
      expect(await selected('path:*\\/status\\/*')).toEqual(
        sorted(ids.betaPosts, ids.betaFailure, ids.ordersMissing),
      );
      expect(await selected(`path:\\/orders-*\\/a\\:b`)).toEqual(sorted(ids.ordersColon));
      expect(await selected(`plan:${k.open.id} AND -status:200`)).toEqual([ids.ordersMissing]);
      expect(await hits('platform', `api:${k.orders.id} AND status:200`)).toBe(2);
    });

    it('groups by application and plan with their names, keyless requests as unknown', async () => {
      const byApp = await get(`/apis/${k.pets.id}/analytics?type=group_by&field=application&${window()}`);
      expect(byApp.values).toEqual({ [k.alpha.id]: 4, [k.beta.id]: 3 });
      expect(byApp.metadata).toEqual({
        [k.alpha.id]: { name: 'Alpha', order: '0' },
        [k.beta.id]: { name: 'Beta', order: '1' },
      });
      const byPlan = await get(`/platform/analytics?type=group_by&field=plan&${window()}`);
      expect(byPlan.values).toEqual({ [k.gold.id]: 7, [k.open.id]: 3 });
      expect(byPlan.metadata[k.open.id]).toEqual({ name: 'Open', order: '1' });
      const byApi = await get(`/platform/analytics?type=group_by&field=api&${window()}`);
      expect(byApi.metadata[k.pets.id]).toEqual({ name: 'Pets', version: '1.0', order: '0' });
      const keyless = await get(`/apis/${k.orders.id}/analytics?type=group_by&field=application&${window()}`);
      expect(keyless).toEqual({
        values: { '?': 3 },
        metadata: { '?': { name: 'Unknown application (keyless)', unknown: 'true', order: '0' } },
      });
    });

    it('groups statuses by ranges and APIs by their slowest average', async () => {
      const ranges = '100:199;200:299;300:399;400:499;500:599';
      const byStatus = await get(
        `/platform/analytics?type=group_by&field=status&ranges=${ranges}&${window()}`,
      );
      expect(byStatus.values).toEqual({
        '100.0-199.0': 0,
        '200.0-299.0': 8,
        '300.0-399.0': 0,
        '400.0-499.0': 1,
        '500.0-599.0': 1,
      });
      const slow = await get(
        `/platform/analytics?type=group_by&field=api&order=-avg:response-time&${window()}`,
      );
      const avg = (apiId: string) => {
        const times = rows.filter((r) => r.api_id === apiId).map((r) => Number(r.response_time));
        return Math.trunc(times.reduce((a, b) => a + b, 0) / times.length);
      };
      const expected = [k.pets.id, k.orders.id].sort((a, b) => avg(b) - avg(a));
      expect(Object.keys(slow.values)).toEqual(expected);
      expect(slow.values[k.pets.id]).toBe(avg(k.pets.id));
    });

    it('gives the stats of the response time as the rows say, the slow failure within them', async () => {
      const stats = await get(`/apis/${k.pets.id}/analytics?type=stats&field=response-time&${window()}`);
      const times = rows.filter((r) => r.api_id === k.pets.id).map((r) => Number(r.response_time));
      const sum = times.reduce((a, b) => a + b, 0);
      const seconds = (k.to - k.from) / 1000;
      expect(stats).toEqual({
        count: 7,
        min: Math.min(...times),
        max: Math.max(...times),
        sum,
        avg: expect.closeTo(sum / 7, 6),
        rps: expect.closeTo(7 / seconds, 9),
        rpm: expect.closeTo((7 / seconds) * 60, 9),
        rph: expect.closeTo((7 / seconds) * 3600, 6),
      });
      const slowest = rows.find((r) => r.id === k.ids.betaFailure)!;
      expect(Number(slowest.response_time)).toBeGreaterThanOrEqual(120);
      // Not necessarily the maximum: on a loaded machine the first call (cold connections) can be slower.
      expect(stats.max).toBeGreaterThanOrEqual(Number(slowest.response_time));
    });

    it('buckets hits by status and the average response time by interval', async () => {
      const interval = 1000;
      const body = await get(
        `/platform/analytics?type=date_histo&interval=${interval}&aggs=field:status;avg:response-time&${window()}`,
      );
      const first = Math.floor(k.from / interval) * interval;
      const last = Math.floor(k.to / interval) * interval;
      expect(body.timestamp).toEqual({ from: first, to: last, interval });
      const size = (last - first) / interval + 1;
      const [byStatus, avgTime] = body.values;
      expect(byStatus.name).toBe('by_status');
      expect(byStatus.field).toBe('status');
      const expectedStatus = new Map<string, number[]>();
      const sums = new Array<number>(size).fill(0);
      const counts = new Array<number>(size).fill(0);
      for (const r of rows) {
        const i = (Math.floor(Number(r.timestamp) / interval) * interval - first) / interval;
        const data = expectedStatus.get(String(r.status)) ?? new Array<number>(size).fill(0);
        data[i] = data[i]! + 1;
        expectedStatus.set(String(r.status), data);
        sums[i] = sums[i]! + Number(r.response_time);
        counts[i] = counts[i]! + 1;
      }
      expect(byStatus.buckets).toEqual(
        ['200', '201', '404', '503'].map((name) => ({ name, data: expectedStatus.get(name) })),
      );
      expect(avgTime).toEqual({
        name: 'avg_response-time',
        field: 'response-time',
        buckets: [
          {
            name: 'avg_response-time',
            data: sums.map((s, i) => (counts[i] ? Math.trunc(s / counts[i]!) : 0)),
          },
        ],
      });
    });

    it('gives the maximum and the percentiles of an API per interval', async () => {
      // One bucket of about eleven days holds all the traffic (sent within a few seconds).
      const interval = 1_000_000_000;
      const body = await get(
        `/apis/${k.pets.id}/analytics?type=date_histo&interval=${interval}&aggs=max:response-time;percentiles:response-time:50,100&${window()}`,
      );
      const mine = rows.filter((r) => r.api_id === k.pets.id);
      const times = mine.map((r) => Number(r.response_time)).sort((a, b) => a - b);
      const i =
        (Math.floor(Number(mine[0]!.timestamp) / interval) * interval - body.timestamp.from) / interval;
      const [max, percentiles] = body.values;
      expect(max.buckets[0].data[i]).toBe(times[6]);
      expect(percentiles.name).toBe('percentiles_response-time');
      // Nearest rank of seven values: the 4th for the median, the 7th for the 100th percentile.
      expect(percentiles.buckets.map((b: { name: string; data: number[] }) => [b.name, b.data[i]])).toEqual([
        ['50', times[3]],
        ['100', times[6]],
      ]);
    });
  });
}
