// Analytics benchmark: a day of 1,000,000 generated requests (BENCH_ANALYTICS_REQUESTS) loaded
// through the gateway reporter's own write paths (the SQLite writer thread's prepared statements; on
// PostgreSQL plain inserts of 1,000 rows, then the rollups built by the migration's statement), then
// every widget query of the API, application and platform dashboards over that day (timeframe 1d,
// bucket 10 min) timed through the analytics query layer: median of BENCH_RUNS runs, and once on
// the raw rows alone (rollups bypassed) as the baseline. Target: every widget under 1 s.
// The clients are a few user agents at addresses of a small GeoIP database written for the run, so
// that the optional widgets (browser, system, country, city) have data; the writers place them.
// Databases: SQLite in a temporary folder, and PostgreSQL at BENCH_DATABASE_URL (default the test
// server; a database is created and dropped) unless BENCH_DIALECTS=sqlite.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import {
  GeoLocator,
  SqliteRequestWriter,
  countRequests,
  groupRequests,
  histogramCounts,
  histogramMetric,
  histogramPercentiles,
  histogramTerms,
  ROLLUP_TIERS,
  rollupBackfillSql,
  openStorage,
  requestStats,
  requestValues,
  withDetails,
} from '../packages/storage/dist/index.js';
import { traffic, writeGeoDatabase } from './lib/analytics-traffic.mjs';

const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// BENCH_RAW=0 skips the raw-rows baseline (minutes on a day of 1M requests).
const RAW = process.env.BENCH_RAW !== '0';
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGET_MS = 1000;
const DAY = 86_400_000;
const INTERVAL = 600_000; // the 1d timeframe's bucket (section 9)
const BATCH = 1000;

/**
 * The widgets of the three dashboards, as the analytics layer's calls (Gravitee 1.x dashboards): every
 * widget of packages/web/src/features/analytics/dashboards.ts, plus a few queries they do not show
 * (percentiles, the platform's hits by API and by application, the API's top failed applications).
 */
function widgets(scope) {
  const ranges = [100, 200, 300, 400, 500].map((from) => ({ from, to: from + 100 }));
  const top =
    (field, extra = {}) =>
    (db, s) =>
      groupRequests(db, s, { field, size: 10_000, ...extra });
  const slow = (field, metric) => top(field, { order: { field: metric, type: 'avg', ascending: false } });
  const failed = (field) => (db, s) =>
    groupRequests(db, { ...s, filter: 'status:[500 TO 599]' }, { field, size: 10_000 });
  const common = [
    ['hits (count)', (db, s) => countRequests(db, s)],
    ['request stats (stats response-time)', (db, s) => requestStats(db, s, 'response-time')],
    ['status pie (group_by status ranges)', top('status', { ranges })],
    ['hits by status (date_histo field:status)', (db, s) => histogramTerms(db, s, INTERVAL, 'status')],
    [
      'response times (date_histo avg:response-time;avg:api-response-time)',
      async (db, s) => [
        await histogramMetric(db, s, INTERVAL, 'avg', 'response-time'),
        await histogramMetric(db, s, INTERVAL, 'avg', 'api-response-time'),
      ],
    ],
    [
      'latency percentiles (date_histo percentiles:response-time)',
      (db, s) => histogramPercentiles(db, s, INTERVAL, 'response-time', [50, 90, 95, 99]),
    ],
  ];
  // The optional widgets (all of them: a GeoIP database is configured).
  const optional = [
    ['hits by host (optional widget, raw rows)', top('host')],
    ['hits by browser (optional widget, raw rows)', top('user_agent.name')],
    ['hits by system (optional widget, raw rows)', top('user_agent.os_name')],
    ['hits by country (optional widget, raw rows)', top('geoip.country_iso_code')],
    ['hits by city (optional widget, raw rows)', top('geoip.city_name')],
  ];
  if (scope === 'platform') {
    return [
      ...common,
      ['top APIs (group_by api)', top('api')],
      ['top applications (group_by application)', top('application')],
      ['top failed APIs (group_by api, status 5xx)', failed('api')],
      ['top slow APIs (order -avg:response-time)', slow('api', 'response-time')],
      ['top overhead APIs (order -avg:proxy-latency)', slow('api', 'proxy-latency')],
      ['tenants (group_by tenant)', top('tenant')],
      ...optional,
      ['hits by API (date_histo field:api)', (db, s) => histogramTerms(db, s, INTERVAL, 'api')],
      [
        'hits by application (date_histo field:application)',
        (db, s) => histogramTerms(db, s, INTERVAL, 'application'),
      ],
      ['hits (date_histo)', (db, s) => histogramCounts(db, s, INTERVAL)],
    ];
  }
  if (scope === 'api') {
    return [
      ...common,
      ['top applications (group_by application)', top('application')],
      ['top plans (group_by plan)', top('plan')],
      ['top paths (group_by path, raw rows)', top('path')],
      ['top mapped paths (group_by mapped-path, raw rows)', top('mapped-path')],
      ['top slow applications (order -avg:response-time)', slow('application', 'response-time')],
      ['top failed applications (status 5xx)', failed('application')],
      [
        'hits by application (date_histo field:application)',
        (db, s) => histogramTerms(db, s, INTERVAL, 'application'),
      ],
      ...optional,
    ];
  }
  return [
    ...common,
    ['top APIs (group_by api)', top('api')],
    ['top paths (group_by path, raw rows)', top('path')],
    ['top mapped paths (group_by mapped-path, raw rows)', top('mapped-path')],
    ['top failed APIs (status 5xx)', failed('api')],
    ['top slow APIs (order -avg:response-time)', slow('api', 'response-time')],
    ['hits by API (date_histo field:api)', (db, s) => histogramTerms(db, s, INTERVAL, 'api')],
  ];
}

async function load(dialect, storage, rows, geoipDatabase) {
  const started = performance.now();
  let batch = [];
  if (dialect === 'sqlite') {
    const writer = new SqliteRequestWriter(storage.sqlitePath, { geoipDatabase });
    for (const row of rows()) {
      batch.push(requestValues(row));
      if (batch.length === BATCH) {
        writer.write(batch, []);
        batch = [];
      }
    }
    if (batch.length) writer.write(batch, []);
    writer.close();
  } else {
    const details = { geo: GeoLocator.open(geoipDatabase) };
    const inFlight = new Set();
    const write = (part) => {
      // Plain inserts, the rollups built afterwards by the migration's backfill statement: the
      // reporter's path (insertRequestBatch, rollups upserted per batch) loads ~1,600 rows/s here.
      const p = storage.db
        .insertInto('requests')
        .values(part.map((row) => withDetails(row, details)))
        .execute();
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    for (const row of rows()) {
      batch.push(row);
      if (batch.length === BATCH) {
        write(batch);
        batch = [];
        if (inFlight.size >= 4) await Promise.race(inFlight);
      }
    }
    if (batch.length) write(batch);
    await Promise.all(inFlight);
    for (const tier of ROLLUP_TIERS) await sql.raw(rollupBackfillSql(tier)).execute(storage.db);
  }
  await sql`analyze`.execute(storage.db);
  return performance.now() - started;
}

async function time(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function openDialect(dialect) {
  if (dialect === 'sqlite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-analytics-'));
    const storage = await openStorage({ dataDir });
    return {
      storage,
      drop: async () => (await storage.close(), rmSync(dataDir, { recursive: true, force: true })),
    };
  }
  const name = `portico_bench_${randomBytes(5).toString('hex')}`;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const storage = await openStorage({ databaseUrl: url.toString(), dataDir: os.tmpdir(), poolSize: 6 });
  return {
    storage,
    drop: async () => (await storage.close(), await admin(`drop database ${name} with (force)`)),
  };
}

async function main() {
  const now = Math.floor(Date.now() / 60_000) * 60_000 + 17_000;
  const rows = traffic(now, REQUESTS);
  const geoDir = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-geo-'));
  const geoipDatabase = writeGeoDatabase(geoDir);
  const results = [];
  for (const dialect of DIALECTS) {
    const { storage, drop } = await openDialect(dialect);
    try {
      const loadMs = await load(dialect, storage, rows, geoipDatabase);
      const db = storage.db;
      const window = { from: now - DAY, to: now };
      // The busiest API and application: the dashboards that read the most.
      const [api] = await groupRequests(db, window, { field: 'api', size: 1 });
      const [app] = await groupRequests(
        db,
        { ...window, filter: '_exists_:application' },
        { field: 'application', size: 1 },
      );
      const scopes = [
        ['platform', window],
        ['api', { ...window, apiId: api.key }],
        ['application', { ...window, applicationId: app.key }],
      ];
      const countOf = async (table) =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirst()
          ).n,
        );
      const rollupRows = {
        m: await countOf('request_rollups'),
        t: await countOf('request_rollups_10m'),
        a: await countOf('request_rollups_api'),
      };
      console.log(
        `${dialect}: ${REQUESTS.toLocaleString('en')} requests loaded in ${(loadMs / 1000).toFixed(1)} s ` +
          `(${Math.round(REQUESTS / (loadMs / 1000)).toLocaleString('en')}/s), rollup rows ${Number(rollupRows.m).toLocaleString('en')} (minute), ${Number(rollupRows.t).toLocaleString('en')} (10 min), ${rollupRows.a.toLocaleString('en')} (10 min, API and status); ` +
          `busiest API ${api.value.toLocaleString('en')} requests, application ${app.value.toLocaleString('en')}`,
      );
      for (const [scopeName, scope] of scopes) {
        for (const [name, query] of widgets(scopeName)) {
          const runs = [];
          for (let i = 0; i < RUNS; i++) runs.push(await time(() => query(db, scope)));
          const raw = RAW ? await time(() => query(db, { ...scope, raw: true })) : NaN;
          results.push({ dialect, scope: scopeName, name, ms: median(runs), raw });
        }
      }
    } finally {
      await drop();
    }
  }
  rmSync(geoDir, { recursive: true, force: true });
  const pad = (s, n) => String(s).padEnd(n);
  const num = (n) => (Number.isNaN(n) ? '-' : String(Math.round(n))).padStart(8);
  console.log(
    `\nDashboard widgets over a day of ${REQUESTS.toLocaleString('en')} requests (1d, 10 min buckets), ms; median of ${RUNS} runs; raw = rollups bypassed, 1 run`,
  );
  console.log(
    `${pad('dialect', 9)}${pad('dashboard', 13)}${pad('widget', 70)}${'ms'.padStart(8)}${'raw ms'.padStart(8)}  target`,
  );
  for (const r of results) {
    console.log(
      `${pad(r.dialect, 9)}${pad(r.scope, 13)}${pad(r.name, 70)}${num(r.ms)}${num(r.raw)}  ${r.ms < TARGET_MS ? 'ok' : 'OVER'}`,
    );
  }
  const over = results.filter((r) => r.ms >= TARGET_MS);
  const worst = results.reduce((a, b) => (b.ms > a.ms ? b : a));
  console.log(
    `\nslowest: ${worst.dialect} ${worst.scope} ${worst.name} ${Math.round(worst.ms)} ms; ${over.length} of ${results.length} widgets at or over ${TARGET_MS} ms`,
  );
}

await main();
