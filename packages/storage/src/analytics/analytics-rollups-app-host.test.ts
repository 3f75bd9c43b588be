import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { insertRequestBatch } from '../requests/requests.repository.js';
import type { NewRequestRow } from '../requests/requests.table.js';
import type { AnalyticsScope } from './analytics.repository.js';
import { countRequests, groupRequests } from './analytics.repository.js';
import { histogramMetric, histogramTerms } from './analytics-histogram.repository.js';
import { rollupSource } from './analytics-rollups.js';
import * as migration from '../migrations/2026-11-26-2300-request-rollups-app-host.js';

const T = 1_790_000_000_000; // a whole ten minutes
const HOUR = 3_600_000;

/** Requests over 3 hours with several hosts per API, including a missing host and hosts holding `|=~`. */
function generate(n: number): NewRequestRow[] {
  let s = 7;
  const next = () => ((s = (s * 1103515245 + 12345) % 2147483648), s / 2147483648);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const api = pick(['A', 'B', 'C']);
    const app = pick(['X', 'Y', 'Z', 'W', null]);
    return {
      id: `r${i}`,
      transaction_id: `t${i}`,
      timestamp: T + Math.floor(next() * 3 * HOUR),
      gateway: 'g1',
      api_id: api,
      application_id: app,
      plan_id: app ? `${api}-${app}` : null,
      subscription_id: null,
      api_key: null,
      user: null,
      tenant: null,
      method: pick(['GET', 'POST']),
      path: '/a',
      uri: '/a',
      mapped_path: null,
      host: pick(['api.example.com', 'eu.example.com:8443', null, 'a|=b', 'a', '~']),
      status: pick([200, 200, 201, 404, 500]),
      request_content_length: Math.floor(next() * 1000),
      response_content_length: Math.floor(next() * 5000),
      response_time: Math.floor(next() * 900),
      api_response_time: Math.floor(next() * 700),
      latency: Math.floor(next() * 50),
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

/** The platform, API and application dashboards' windows, with partial ten minutes at the ends. */
const SCOPES: AnalyticsScope[] = [
  { from: T, to: T + 3 * HOUR },
  { from: T + 12_345, to: T + 2 * HOUR + 59_999 },
  { from: T + 30_000, to: T + 3 * HOUR, apiId: 'A' },
  { from: T - HOUR, to: T + 2 * HOUR + 1, applicationId: 'Y' },
  { from: T + 1000, to: T + 3 * HOUR - 1000, apiIds: ['A', 'C'] },
  { from: T, to: T + 3 * HOUR, apiId: 'B', filter: 'host:a* OR NOT _exists_:host' },
  { from: T, to: T + 3 * HOUR, filter: 'application:X OR host:"a|=b"' },
];

const sorted = <P extends { bucket: number; key: string | null }>(points: P[]) =>
  [...points].sort((a, b) => a.bucket - b.bucket || String(a.key).localeCompare(String(b.key)));

for (const dialect of await testDialects()) {
  describe(`${dialect}: hits by application and top hosts from the API-application-host rollups`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      const rows = generate(5000);
      for (let i = 0; i < rows.length; i += 900) {
        await t.storage.db
          .transaction()
          .execute((trx) => insertRequestBatch(trx, rows.slice(i, i + 900), []));
      }
    });
    afterAll(() => t.destroy());

    const both = async <R>(scope: AnalyticsScope, query: (s: AnalyticsScope) => Promise<R>) => ({
      rolled: await query(scope),
      raw: await query({ ...scope, raw: true }),
    });

    it('reads the API-application-host tier for these widgets', () => {
      const tableOf = (
        scope: AnalyticsScope,
        interval: number | undefined,
        dimension: 'application_id' | 'host',
      ) => {
        const source = rollupSource(scope, interval, { dimensions: [dimension], measures: ['count'] });
        return source ? /request_rollups\w*/.exec(source.compile(t.storage.db).sql)?.[0] : undefined;
      };
      expect(tableOf(SCOPES[0]!, 600_000, 'application_id')).toBe('request_rollups_app_host');
      expect(tableOf(SCOPES[2]!, undefined, 'host')).toBe('request_rollups_app_host');
      expect(tableOf(SCOPES[5]!, undefined, 'host')).toBe('request_rollups_app_host');
      // Minute buckets: no tier with the host has that grain.
      expect(tableOf(SCOPES[2]!, 60_000, 'host')).toBeUndefined();
    });

    it('the rollups hold every request exactly once', async () => {
      const total = await t.storage.db
        .selectFrom('request_rollups_app_host')
        .select((eb) => eb.fn.sum<string | number>('count').as('n'))
        .executeTakeFirst();
      expect(Number(total?.n)).toBe(5000);
      expect(await countRequests(t.storage.db, { from: T, to: T + 3 * HOUR, filter: '_exists_:host' })).toBe(
        await countRequests(t.storage.db, { from: T, to: T + 3 * HOUR, filter: '_exists_:host', raw: true }),
      );
    });

    it("the migration's backfill builds the rows the writer built", async () => {
      const db = t.storage.db;
      const all = () =>
        db.selectFrom('request_rollups_app_host').selectAll().orderBy('minute').orderBy('key').execute();
      const written = await all();
      expect(written.length).toBeGreaterThan(100);
      await migration.down(db);
      await migration.up(db);
      expect(await all()).toEqual(written);
    });

    it('hits by application (date_histo field:application) equal the raw rows', async () => {
      for (const scope of SCOPES) {
        for (const interval of [600_000, HOUR]) {
          const terms = await both(scope, (s) => histogramTerms(t.storage.db, s, interval, 'application'));
          expect(terms.raw.length).toBeGreaterThan(0);
          expect(sorted(terms.rolled)).toEqual(sorted(terms.raw));
          const avg = await both(scope, (s) =>
            histogramMetric(t.storage.db, s, interval, 'max', 'response-time'),
          );
          expect(sorted(avg.rolled)).toEqual(sorted(avg.raw));
        }
      }
    });

    it('top hosts (group_by host), by count or ordered by a metric, equal the raw rows', async () => {
      for (const scope of SCOPES) {
        const byCount = await both(scope, (s) =>
          groupRequests(t.storage.db, s, { field: 'host', size: 10_000 }),
        );
        expect(byCount.raw.length).toBeGreaterThan(0);
        expect(byCount.rolled).toEqual(byCount.raw);
        const top = await both(scope, (s) =>
          groupRequests(t.storage.db, s, {
            field: 'host',
            size: 3,
            order: { field: 'response-time', type: 'avg', ascending: false },
          }),
        );
        expect(top.rolled).toEqual(top.raw);
        const apps = await both(scope, (s) =>
          groupRequests(t.storage.db, s, { field: 'application', size: 10 }),
        );
        expect(apps.rolled).toEqual(apps.raw);
      }
    });
  });
}
