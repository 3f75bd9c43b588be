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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { writeTestMmdb } from '../packages/storage/dist/requests/test-mmdb.js';

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

/** Deterministic pseudo-random numbers: every run loads the same day. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * Traffic with a realistic shape: 40 APIs with Zipf-like popularity, 300 applications each
 * subscribed to 1-4 APIs through one plan, 8% key-less calls, statuses and methods in production-like
 * proportions, log-normal response times.
 */
function traffic(now) {
  const next = random(7);
  const apis = Array.from({ length: 40 }, (_, i) => `api-${String(i).padStart(2, '0')}-${'0'.repeat(28)}`);
  const weights = apis.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative = [];
  weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);
  const pickApi = () => {
    const r = next();
    const i = cumulative.findIndex((c) => r <= c);
    return apis[i < 0 ? apis.length - 1 : i];
  };
  const subscribers = new Map(apis.map((a) => [a, []]));
  for (let i = 0; i < 300; i++) {
    const app = `app-${String(i).padStart(3, '0')}-${'0'.repeat(27)}`;
    const count = 1 + Math.floor(next() * 4);
    for (let k = 0; k < count; k++) {
      const api = pickApi();
      subscribers.get(api).push({ app, plan: `plan-${api.slice(4, 6)}-${'0'.repeat(28)}` });
    }
  }
  // Mostly successes, as production traffic: 86% 200, 8% other 2xx/304, 5% 4xx, 1.5% 5xx.
  const statusOf = () => {
    const r = next();
    const table = [
      [0.86, 200],
      [0.9, 201],
      [0.92, 204],
      [0.94, 304],
      [0.955, 400],
      [0.965, 401],
      [0.98, 404],
      [0.985, 429],
      [0.995, 500],
      [1, 503],
    ];
    return table.find(([p]) => r < p)?.[1] ?? 503;
  };
  const methodOf = () => {
    const r = next();
    return r < 0.7 ? 'GET' : r < 0.9 ? 'POST' : r < 0.97 ? 'PUT' : 'DELETE';
  };
  const paths = ['/', '/items', '/items/:id', '/orders', '/orders/:id', '/search', '/health'];
  // Clients: a few user agents, and addresses in the bench's GeoIP networks (one in ten in none).
  const agentOf = () => USER_AGENTS[Math.floor(next() * USER_AGENTS.length)];
  const addressOf = () => {
    const n = Math.floor(next() * (GEO_NETWORKS.length + 1));
    return n === GEO_NETWORKS.length
      ? '10.0.0.1'
      : `${GEO_NETWORKS[n].prefix}.${1 + Math.floor(next() * 250)}`;
  };
  const start = now - DAY;
  return function* () {
    for (let i = 0; i < REQUESTS; i++) {
      const api = pickApi();
      const subs = subscribers.get(api);
      const sub = subs.length > 0 && next() > 0.08 ? subs[Math.floor(next() * subs.length)] : undefined;
      const status = statusOf();
      const backend = status === 401 || status === 429 ? -1 : Math.round(Math.exp(3 + next() * 2.5 * next()));
      const gatewayShare = 1 + Math.floor(next() * 4);
      const path = paths[Math.floor(next() * paths.length)];
      yield {
        id: `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`,
        transaction_id: `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000001`,
        timestamp: start + Math.floor((i / REQUESTS) * DAY),
        gateway: `gw-${i % 2}`,
        api_id: api,
        application_id: sub ? sub.app : null,
        plan_id: sub ? sub.plan : null,
        subscription_id: sub ? `${sub.app}-${api}` : null,
        api_key: null,
        user: null,
        tenant: null,
        method: methodOf(),
        path,
        uri: path,
        mapped_path: path,
        host: 'api.example.com',
        status,
        request_content_length: Math.floor(next() * 500),
        response_content_length: Math.floor(next() * 20_000),
        response_time: (backend < 0 ? 0 : backend) + gatewayShare,
        api_response_time: backend,
        latency: gatewayShare,
        endpoint: backend < 0 ? null : 'http://backend.internal/',
        remote_address: addressOf(),
        user_agent: agentOf(),
        security_type: sub ? 'API_KEY' : 'KEY_LESS',
        error_key: null,
        message: null,
        has_log: 0,
      };
    }
  };
}

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'curl/8.5.0',
  'python-requests/2.32.3',
  'okhttp/4.12.0',
  'Go-http-client/1.1',
];
/** The bench's GeoIP database: 20 /16 networks in 20 cities of 5 countries. */
const GEO_NETWORKS = Array.from({ length: 20 }, (_, i) => ({
  prefix: `${81 + i}.2`,
  country: ['FR', 'DE', 'BR', 'JP', 'US'][i % 5],
  city: `City ${i}`,
}));

function writeGeoDatabase(dir) {
  const file = path.join(dir, 'bench-geo.mmdb');
  const networks = GEO_NETWORKS.map((n) => ({
    cidr: `${n.prefix}.0.0/16`,
    data: { country: { iso_code: n.country }, city: { geoname_id: 1, names: { en: n.city } } },
  }));
  writeFileSync(file, writeTestMmdb(networks));
  return file;
}

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
  const rows = traffic(now);
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
