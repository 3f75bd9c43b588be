import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@portico/model';
import type { TestDatabase } from '../testing.js';
import { createTestDatabase, testDialects } from '../testing.js';
import type { NewRequestRow } from '../requests/requests.table.js';
import { GeoLocator } from '../requests/geo-locator.js';
import { insertRequestBatch } from '../requests/requests.repository.js';
import { testGeoDatabase } from '../requests/test-mmdb.js';
import type { AnalyticsScope } from './analytics.repository.js';
import { countRequests, groupRequests, requestStats } from './analytics.repository.js';
import {
  histogramCounts,
  histogramMetric,
  histogramPercentiles,
  histogramTerms,
} from './analytics-histogram.repository.js';
import { searchRequests } from './request-logs.repository.js';

const T = Date.UTC(2026, 0, 1);

function row(id: string, r: Partial<NewRequestRow>): NewRequestRow {
  return {
    id,
    transaction_id: `tx-${id}`,
    timestamp: T,
    gateway: 'gw',
    api_id: 'A',
    application_id: null,
    plan_id: null,
    subscription_id: null,
    api_key: null,
    user: null,
    tenant: null,
    method: 'GET',
    path: '/',
    uri: '/',
    mapped_path: null,
    host: null,
    status: 200,
    request_content_length: 0,
    response_content_length: 0,
    response_time: 0,
    api_response_time: 0,
    latency: 0,
    endpoint: null,
    remote_address: null,
    user_agent: null,
    security_type: null,
    error_key: null,
    message: null,
    has_log: 0,
    ...r,
  };
}

/** Six requests with known figures: two APIs, two applications, three plans, three minutes. */
const ROWS = [
  row('r1', {
    application_id: 'X',
    plan_id: 'P1',
    path: '/pets',
    status: 200,
    response_time: 100,
    user_agent: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    remote_address: '81.2.69.160',
  }),
  row('r2', {
    timestamp: T + 1000,
    application_id: 'X',
    plan_id: 'P1',
    path: '/pets/1',
    status: 200,
    response_time: 200,
    user_agent: 'curl/8.5.0',
    remote_address: '::ffff:127.0.0.1',
  }),
  row('r3', {
    timestamp: T + 61_000,
    application_id: 'Y',
    plan_id: 'P2',
    method: 'POST',
    path: '/pets',
    status: 201,
    response_time: 300,
  }),
  row('r4', { timestamp: T + 62_000, path: '/admin:x', status: 500, response_time: 400 }),
  row('r5', {
    timestamp: T + 125_000,
    api_id: 'B',
    application_id: 'X',
    plan_id: 'P3',
    method: 'DELETE',
    path: '/orders',
    status: 503,
    response_time: 1000,
    user_agent: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    remote_address: '2001:db8::7',
  }),
  row('r6', {
    timestamp: T + 130_000,
    api_id: 'B',
    application_id: 'Y',
    path: '/a b',
    status: 404,
    response_time: 50,
  }),
];

const ALL: AnalyticsScope = { from: T, to: T + 3_600_000 };

for (const dialect of await testDialects()) {
  describe(`${dialect}: analytics queries`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      // With a GeoIP database: the writer places the client addresses.
      await insertRequestBatch(t.storage.db, ROWS, [], { geo: GeoLocator.open(testGeoDatabase()) });
    });
    afterAll(() => t.destroy());

    const ids = async (filter: string, scope: Partial<AnalyticsScope> = {}) =>
      (
        await searchRequests(
          t.storage.db,
          { ...ALL, ...scope, filter },
          {
            sortField: '@timestamp',
            ascending: true,
            offset: 0,
            limit: 100,
          },
        )
      ).rows.map((r) => r.id);

    it('counts the requests of each scope and time window', async () => {
      const db = t.storage.db;
      expect(await countRequests(db, ALL)).toBe(6);
      expect(await countRequests(db, { ...ALL, apiId: 'A' })).toBe(4);
      expect(await countRequests(db, { ...ALL, applicationId: 'X' })).toBe(3);
      expect(await countRequests(db, { ...ALL, apiIds: ['B'] })).toBe(2);
      expect(await countRequests(db, { ...ALL, apiIds: [] })).toBe(0);
      expect(await countRequests(db, { from: T + 60_000, to: T + 120_000 })).toBe(2);
    });

    it('filters with field:value, ranges, boolean operators, wildcards and escaped characters', async () => {
      expect(await ids('status:[500 TO 599]')).toEqual(['r4', 'r5']);
      expect(await ids('status:{200 TO 500]')).toEqual(['r3', 'r4', 'r6']);
      expect(await ids('status:[500 TO *]')).toEqual(['r4', 'r5']);
      expect(await ids('method:GET AND NOT status:200')).toEqual(['r4', 'r6']);
      expect(await ids('application:X OR plan:P2')).toEqual(['r1', 'r2', 'r3', 'r5']);
      expect(await ids('(application:X OR application:Y) AND api:B')).toEqual(['r5', 'r6']);
      expect(await ids('-status:200')).toEqual(['r3', 'r4', 'r5', 'r6']);
      expect(await ids('status:(201 OR 404)')).toEqual(['r3', 'r6']);
      expect(await ids('path:\\/pets*')).toEqual(['r1', 'r2', 'r3']);
      expect(await ids('path:\\/PETS\\/?')).toEqual(['r2']);
      expect(await ids('path:\\/admin\\:x')).toEqual(['r4']);
      expect(await ids('path:\\/a\\ b')).toEqual(['r6']);
      expect(await ids('path:"/a b"')).toEqual(['r6']);
      expect(await ids('method:3 AND api:A')).toEqual(['r1', 'r2', 'r4']);
      expect(await ids('NOT _exists_:application')).toEqual(['r4']);
      expect(await ids('status:500', { apiId: 'B' })).toEqual([]);
      // `user` is a reserved word in PostgreSQL: the column is quoted.
      expect(await ids('user:nobody OR transaction:tx-r6')).toEqual(['r6']);
    });

    it('refuses an unknown field, a word where a number is due and broken syntax with a 400 on query', async () => {
      const refusal = async (filter: string) => {
        const error = await countRequests(t.storage.db, { ...ALL, filter }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).httpStatus).toBe(400);
        return (error as DomainError).message;
      };
      expect(await refusal('status:200 AND colour:red')).toBe(
        "Invalid value for field 'query': unknown field 'colour'",
      );
      expect(await refusal('status:abc')).toMatch(/field 'status' is numeric/);
      expect(await refusal('status:[1 TO')).toMatch(/not a valid Lucene query/);
      expect(await refusal('justaword')).toMatch(/needs a field/);
    });

    it('gives count, min, max, average and sum of a numeric field', async () => {
      const stats = await requestStats(t.storage.db, ALL, 'response-time');
      expect(stats).toEqual({ count: 6, min: 50, max: 1000, sum: 2050, avg: expect.closeTo(2050 / 6, 6) });
      expect(await requestStats(t.storage.db, { ...ALL, apiIds: [] }, 'response-time')).toEqual({
        count: 0,
        min: null,
        max: null,
        avg: null,
        sum: null,
      });
    });

    it('groups by the browser and the system named by the User-Agent (optional widgets)', async () => {
      const db = t.storage.db;
      expect(await groupRequests(db, ALL, { field: 'user_agent.name', size: 10 })).toEqual([
        { key: null, value: 3 },
        { key: 'Firefox', value: 2 },
        { key: 'curl', value: 1 },
      ]);
      expect(await groupRequests(db, ALL, { field: 'user_agent.os_name', size: 10 })).toEqual([
        { key: null, value: 3 },
        { key: 'Linux', value: 2 },
        { key: 'Other', value: 1 },
      ]);
      expect(await ids('user_agent.name:Firefox AND os-name:Linux')).toEqual(['r1', 'r5']);
    });

    it('groups by the country and city of the client address (GeoIP database configured)', async () => {
      const db = t.storage.db;
      expect(await groupRequests(db, ALL, { field: 'geoip.country_iso_code', size: 10 })).toEqual([
        { key: null, value: 3 },
        { key: 'BR', value: 1 },
        { key: 'FR', value: 1 },
        { key: 'GB', value: 1 },
      ]);
      expect(await groupRequests(db, ALL, { field: 'geoip.city_name', size: 10 })).toEqual([
        { key: null, value: 4 },
        { key: 'London', value: 1 },
        { key: 'São Paulo', value: 1 },
      ]);
      expect(await ids('geoip.country_iso_code:(GB OR FR)')).toEqual(['r1', 'r5']);
    });

    it('groups by a field by count, by a metric, and by ranges', async () => {
      const db = t.storage.db;
      expect(await groupRequests(db, ALL, { field: 'application', size: 10 })).toEqual([
        { key: 'X', value: 3 },
        { key: 'Y', value: 2 },
        { key: null, value: 1 },
      ]);
      expect(await groupRequests(db, ALL, { field: 'application', size: 1 })).toEqual([
        { key: 'X', value: 3 },
      ]);
      expect(
        await groupRequests(db, ALL, {
          field: 'api',
          size: 10,
          order: { field: 'response-time', type: 'avg', ascending: false },
        }),
      ).toEqual([
        { key: 'B', value: 525 },
        { key: 'A', value: 250 },
      ]);
      const ranges = [100, 200, 300, 400, 500].map((from) => ({ from, to: from + 99 }));
      expect(await groupRequests(db, ALL, { field: 'status', size: 10, ranges })).toEqual([
        { key: '100.0-199.0', value: 0 },
        { key: '200.0-299.0', value: 3 },
        { key: '300.0-399.0', value: 0 },
        { key: '400.0-499.0', value: 1 },
        { key: '500.0-599.0', value: 2 },
      ]);
    });

    it('buckets by interval: counts, terms, metrics and percentiles', async () => {
      const db = t.storage.db;
      const sorted = <P extends { bucket: number; key: string | null }>(p: P[]) =>
        [...p].sort((a, b) => a.bucket - b.bucket || String(a.key).localeCompare(String(b.key)));
      const m = 60_000;
      expect(sorted(await histogramCounts(db, ALL, m))).toEqual([
        { bucket: T, key: null, value: 2 },
        { bucket: T + m, key: null, value: 2 },
        { bucket: T + 2 * m, key: null, value: 2 },
      ]);
      expect(sorted(await histogramTerms(db, ALL, m, 'status'))).toEqual([
        { bucket: T, key: '200', value: 2 },
        { bucket: T + m, key: '201', value: 1 },
        { bucket: T + m, key: '500', value: 1 },
        { bucket: T + 2 * m, key: '404', value: 1 },
        { bucket: T + 2 * m, key: '503', value: 1 },
      ]);
      expect(sorted(await histogramMetric(db, ALL, m, 'avg', 'response-time'))).toEqual([
        { bucket: T, key: null, value: 150 },
        { bucket: T + m, key: null, value: 350 },
        { bucket: T + 2 * m, key: null, value: 525 },
      ]);
      expect(sorted(await histogramPercentiles(db, ALL, m, 'response-time', [50, 99]))).toEqual([
        { bucket: T, key: '50', value: 100 },
        { bucket: T, key: '99', value: 200 },
        { bucket: T + m, key: '50', value: 300 },
        { bucket: T + m, key: '99', value: 400 },
        { bucket: T + 2 * m, key: '50', value: 50 },
        { bucket: T + 2 * m, key: '99', value: 1000 },
      ]);
    });

    it('pages and sorts the requests of a scope on a whitelisted field', async () => {
      const page = await searchRequests(t.storage.db, ALL, {
        sortField: 'response-time',
        ascending: false,
        offset: 1,
        limit: 2,
      });
      expect(page.total).toBe(6);
      expect(page.rows.map((r) => r.id)).toEqual(['r4', 'r3']);
    });
  });
}
