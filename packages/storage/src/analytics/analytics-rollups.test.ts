import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { insertRequestBatch } from '../requests/requests.repository.js';
import type { NewRequestRow } from '../requests/requests.table.js';
import { latencyBucket } from '../requests/rollups.js';
import type { AnalyticsScope } from './analytics.repository.js';
import { countRequests, groupRequests, requestStats } from './analytics.repository.js';
import {
  histogramCounts,
  histogramMetric,
  histogramPercentiles,
  histogramTerms,
} from './analytics-histogram.repository.js';
import { rollupSource } from './analytics-rollups.js';

const T = 1_790_000_000_000; // a whole minute
const HOUR = 3_600_000;

/** A deterministic pseudo-random generator, so that a failure can be reproduced. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function generate(n: number): NewRequestRow[] {
  const next = random(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const api = pick(['A', 'B', 'C', null]);
    const app = pick(['X', 'Y', 'Z', null]);
    const responseTime = Math.floor(next() ** 3 * 2500);
    const apiResponseTime = next() < 0.1 ? -1 : Math.floor(responseTime * 0.8);
    return {
      id: `r${i}`,
      transaction_id: `t${i}`,
      timestamp: T + Math.floor(next() * 3 * HOUR),
      gateway: pick(['g1', 'g2']),
      api_id: api,
      application_id: app,
      plan_id: api && app ? `${api}-${app}` : null,
      subscription_id: null,
      api_key: null,
      user: null,
      tenant: pick(['eu', 'us', null]),
      method: pick(['GET', 'GET', 'POST', 'DELETE']),
      path: pick(['/a', '/b']),
      uri: '/',
      mapped_path: null,
      host: 'h',
      status: pick([200, 200, 200, 201, 304, 404, 429, 500, 503]),
      request_content_length: Math.floor(next() * 1000),
      response_content_length: Math.floor(next() * 5000),
      response_time: responseTime,
      api_response_time: apiResponseTime,
      latency: apiResponseTime < 0 ? responseTime : responseTime - apiResponseTime,
      endpoint: null,
      remote_address: null,
      user_agent: null,
      security_type: null,
      error_key: null,
      message: null,
      has_log: 0,
    };
  });
}

/** Windows with partial minutes at both ends, whole minutes, and a scope or filter each. */
const SCOPES: AnalyticsScope[] = [
  { from: T, to: T + 3 * HOUR },
  { from: T + 12_345, to: T + 2 * HOUR + 59_999 },
  { from: T + 30_000, to: T + HOUR + 45_500, apiId: 'A' },
  { from: T - HOUR, to: T + 4 * HOUR, applicationId: 'Y' },
  { from: T + 1000, to: T + 3 * HOUR - 1000, apiIds: ['A', 'C'] },
  { from: T, to: T + 3 * HOUR, apiIds: [] },
  { from: T + 7_000, to: T + 3 * HOUR, filter: 'status:[500 TO 599]' },
  { from: T, to: T + 3 * HOUR, filter: 'NOT application:X AND (method:GET OR method:3)' },
  { from: T, to: T + 2 * HOUR, filter: 'api:A OR tenant:e* OR _exists_:plan' },
  { from: T + 59_999, to: T + 3 * HOUR, apiId: 'B', filter: '-status:200' },
];

for (const dialect of await testDialects()) {
  describe(`${dialect}: analytics from rollups answer as the raw rows do`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      const rows = generate(6000);
      // Several batches, so that rollup rows are added to by later batches.
      for (let i = 0; i < rows.length; i += 700) {
        await t.storage.db
          .transaction()
          .execute((trx) => insertRequestBatch(trx, rows.slice(i, i + 700), []));
      }
    });
    afterAll(() => t.destroy());

    const both = async <R>(scope: AnalyticsScope, query: (s: AnalyticsScope) => Promise<R>) => {
      return { rolled: await query(scope), raw: await query({ ...scope, raw: true }) };
    };
    const sorted = <P extends { bucket: number; key: string | null }>(points: P[]) =>
      [...points].sort((a, b) => a.bucket - b.bucket || String(a.key).localeCompare(String(b.key)));

    it('reads rollups for these queries (and raw rows when a filter names another field)', () => {
      const count = { dimensions: [], measures: ['count'] };
      // No tier keeps both the application and the method: that filter reads raw rows.
      for (const scope of SCOPES) {
        const source = rollupSource(scope, undefined, count);
        if (scope.filter?.includes('method')) expect(source).toBeUndefined();
        else expect(source).toBeDefined();
      }
      expect(rollupSource({ from: T, to: T + HOUR, filter: 'path:\\/a' }, undefined, count)).toBeUndefined();
      expect(
        rollupSource({ from: T, to: T + HOUR, filter: 'response-time:[0 TO 100]' }, undefined, count),
      ).toBeUndefined();
      expect(rollupSource({ from: T, to: T + HOUR }, 30_000, count)).toBeUndefined();
      expect(rollupSource({ from: T + 1, to: T + 59_000 }, undefined, count)).toBeUndefined();
      // The application is a dimension of the ten-minute tier only: minute buckets read raw rows.
      const app = { from: T, to: T + HOUR, applicationId: 'X' };
      expect(rollupSource(app, 600_000, count)).toBeDefined();
      expect(rollupSource(app, 60_000, count)).toBeUndefined();
      expect(rollupSource({ from: T, to: T + HOUR, filter: 'method:GET' }, 60_000, count)).toBeDefined();
      expect(
        rollupSource({ from: T, to: T + HOUR, filter: 'method:GET' }, undefined, {
          dimensions: ['application_id'],
          measures: ['count'],
        }),
      ).toBeUndefined();
    });

    it('counts and stats', async () => {
      for (const scope of SCOPES) {
        const count = await both(scope, (s) => countRequests(t.storage.db, s));
        expect(count.rolled).toBe(count.raw);
        for (const field of [
          'response-time',
          'api-response-time',
          'proxy-latency',
          'response-content-length',
        ]) {
          const stats = await both(scope, (s) => requestStats(t.storage.db, s, field));
          expect(stats.rolled.count).toBe(stats.raw.count);
          expect(stats.rolled.min).toBe(stats.raw.min);
          expect(stats.rolled.max).toBe(stats.raw.max);
          expect(stats.rolled.sum).toBe(stats.raw.sum);
          if (stats.raw.avg === null) expect(stats.rolled.avg).toBeNull();
          else expect(stats.rolled.avg).toBeCloseTo(stats.raw.avg, 6);
        }
      }
      expect(await countRequests(t.storage.db, SCOPES[0]!)).toBe(6000);
    });

    it('group-by on dimensions, by count or ordered by a metric, and status ranges', async () => {
      const ranges = [100, 200, 300, 400, 500].map((from) => ({ from, to: from + 100 }));
      for (const scope of SCOPES) {
        for (const field of ['api', 'application', 'plan', 'tenant', 'status', 'method']) {
          const byCount = await both(scope, (s) => groupRequests(t.storage.db, s, { field, size: 20 }));
          expect(byCount.rolled).toEqual(byCount.raw);
        }
        for (const order of [
          { field: 'response-time', type: 'avg' as const, ascending: false },
          { field: 'proxy-latency', type: 'max' as const, ascending: true },
          { field: 'api', type: 'count' as const, ascending: true },
        ]) {
          const top = await both(scope, (s) =>
            groupRequests(t.storage.db, s, { field: 'api', size: 3, order }),
          );
          expect(top.rolled).toEqual(top.raw);
        }
        const pie = await both(scope, (s) =>
          groupRequests(t.storage.db, s, { field: 'status', size: 10, ranges }),
        );
        expect(pie.rolled).toEqual(pie.raw);
      }
    });

    it('date histograms of hits, terms and metrics', async () => {
      for (const scope of SCOPES) {
        for (const interval of [60_000, 600_000, HOUR]) {
          const hits = await both(scope, (s) => histogramCounts(t.storage.db, s, interval));
          expect(sorted(hits.rolled)).toEqual(sorted(hits.raw));
          const terms = await both(scope, (s) => histogramTerms(t.storage.db, s, interval, 'status'));
          expect(sorted(terms.rolled)).toEqual(sorted(terms.raw));
          for (const type of ['min', 'max', 'sum'] as const) {
            const metric = await both(scope, (s) =>
              histogramMetric(t.storage.db, s, interval, type, 'response-time'),
            );
            expect(sorted(metric.rolled)).toEqual(sorted(metric.raw));
          }
          const avg = await both(scope, (s) =>
            histogramMetric(t.storage.db, s, interval, 'avg', 'api-response-time'),
          );
          const rawAvg = sorted(avg.raw);
          sorted(avg.rolled).forEach((p, i) => {
            expect(p.bucket).toBe(rawAvg[i]!.bucket);
            expect(p.value).toBeCloseTo(rawAvg[i]!.value, 6);
          });
        }
      }
    });

    it('percentiles from the histogram buckets fall in the bucket of the exact value', async () => {
      let compared = 0;
      for (const scope of SCOPES) {
        for (const interval of [600_000, HOUR]) {
          const p = await both(scope, (s) =>
            histogramPercentiles(t.storage.db, s, interval, 'response-time', [50, 90, 99, 99.9]),
          );
          const raw = sorted(p.raw);
          const rolled = sorted(p.rolled);
          expect(rolled.map((x) => [x.bucket, x.key])).toEqual(raw.map((x) => [x.bucket, x.key]));
          rolled.forEach((x, i) => {
            expect(latencyBucket(x.value)).toBe(latencyBucket(raw[i]!.value));
            compared += 1;
          });
        }
      }
      expect(compared).toBeGreaterThan(100);
    });
  });
}
