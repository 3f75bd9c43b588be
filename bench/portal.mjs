// Developer portal benchmark (issue 14, item 7): with 10,000 APIs (10 views, 10 top APIs, ratings on a
// fifth of them) in a SQLite database, the server time of the calls behind the portal's home page,
// `/apis` and its search, through the management app (app.inject, no network), for a visitor and for
// a signed-in developer (member of some private APIs). Baseline in the same run: `GET health`.
// Target: under 100 ms for each call. Data goes in through storage directly, for speed.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { buildManagementApp } from '../packages/management/dist/index.js';
import { EventBus, insertUser, openStorage } from '../packages/storage/dist/index.js';

const APIS = Number(process.env.BENCH_APIS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TARGET_MS = 100;
const WORDS = [
  'weather',
  'orders',
  'payments',
  'maps',
  'stocks',
  'music',
  'books',
  'flights',
  'hotels',
  'cars',
];

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-portal-'));
const storage = await openStorage({ dataDir });
const db = storage.db;

async function seed() {
  const now = Date.now();
  const developerId = randomUUID();
  await insertUser(db, {
    ...{ id: developerId, source: 'portico', source_id: 'developer', email: 'dev@example.test' },
    ...{ firstname: 'Dana', lastname: 'Developer', password: null, status: 'ACTIVE', login_count: 0 },
    ...{ created_at: now, updated_at: now },
  });
  await db
    .insertInto('views')
    .values(
      WORDS.map((w, i) => ({
        id: w,
        name: `${w} view`,
        description: null,
        picture: null,
        highlight_api: null,
        order: i,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  const started = process.hrtime.bigint();
  const ids = [];
  for (let from = 0; from < APIS; from += 1000) {
    await db.transaction().execute(async (trx) => {
      const apis = [];
      const members = [];
      const ratings = [];
      for (let i = from; i < Math.min(from + 1000, APIS); i++) {
        const id = randomUUID();
        ids.push(id);
        const word = WORDS[i % WORDS.length];
        const contextPath = `/${word}-${i}`;
        const definition = {
          id,
          name: `${word} ${i}`,
          version: '1.0',
          proxy: {
            context_path: contextPath,
            groups: [{ name: 'default', endpoints: [{ name: 'b', target: `https://${word}.example.com` }] }],
          },
          paths: { '/': [] },
        };
        apis.push({
          id,
          name: `${word} ${i}`,
          version: '1.0',
          description: `The ${word} API number ${i}, with a description of a usual length for a catalogue.`,
          context_path: contextPath,
          definition: JSON.stringify(definition),
          state: 'STARTED',
          visibility: i % 10 === 9 ? 'PRIVATE' : 'PUBLIC',
          lifecycle_state: 'PUBLISHED',
          labels: JSON.stringify([word]),
          views: JSON.stringify([word]),
          groups: '[]',
          created_at: now,
          updated_at: now,
        });
        members.push({
          ...{
            id: randomUUID(),
            member_id: i % 50 === 9 ? developerId : 'someone-else',
            member_type: 'USER',
          },
          ...{ reference_type: 'API', reference_id: id, role_scope: 'API', role_name: 'PRIMARY_OWNER' },
          ...{ created_at: now, updated_at: now },
        });
        if (i % 5 === 0)
          for (let r = 0; r < 3; r++)
            ratings.push({
              ...{ id: randomUUID(), api_id: id, user_id: `rater-${r}`, rate: 1 + ((i + r) % 5) },
              ...{ title: null, comment: null, created_at: now, updated_at: now },
            });
      }
      for (let k = 0; k < apis.length; k += 50)
        await trx
          .insertInto('apis')
          .values(apis.slice(k, k + 50))
          .execute();
      for (let k = 0; k < members.length; k += 50)
        await trx
          .insertInto('memberships')
          .values(members.slice(k, k + 50))
          .execute();
      for (let k = 0; k < ratings.length; k += 50)
        await trx
          .insertInto('ratings')
          .values(ratings.slice(k, k + 50))
          .execute();
    });
  }
  await db
    .insertInto('top_apis')
    .values(ids.slice(0, 10).map((api_id, order) => ({ api_id, order })))
    .execute();
  return { seedMs: Number(process.hrtime.bigint() - started) / 1e6, developerId };
}

const { seedMs, developerId } = await seed();
const { app, services } = await buildManagementApp({ storage, bus: new EventBus() });
const developerToken = (await services.tokens.issue(developerId)).token;
// Server time: from the request's arrival to the last byte of the answer handed to the socket (Fastify's
// elapsedTime at onResponse). The round trip adds app.inject's own copying of the body into a string,
// which a real client's socket does not do (~35 ms for the 5.5 MB list of every API).
let serverMs = 0;
app.addHook('onResponse', (_request, reply, done) => {
  serverMs = reply.elapsedTime;
  done();
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function time(label, request) {
  let size = 0;
  let count = 0;
  for (let i = 0; i < 3; i++) await app.inject(request); // warm-up
  const samples = [];
  const roundTrips = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    const res = await app.inject(request);
    roundTrips.push(Number(process.hrtime.bigint() - started) / 1e6);
    samples.push(serverMs);
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    size = res.rawPayload.length;
    const body = res.json();
    count = Array.isArray(body) ? body.length : 1;
  }
  return { label, median: median(samples), p95: p95(samples), roundTrip: median(roundTrips), size, count };
}

const M = '/management';
const calls = [
  ['home: GET portal (settings)', 'GET', '/portal'],
  ['home: GET apis?top=true', 'GET', '/apis?top=true'],
  ['home: GET configuration/views', 'GET', '/configuration/views'],
  ['home: GET portal/pages?homepage=true', 'GET', '/portal/pages?homepage=true&published=true'],
  ['footer: GET portal/pages?root=true', 'GET', '/portal/pages?root=true&published=true&homepage=false'],
  ['/apis: GET apis', 'GET', '/apis'],
  ['/apis: GET apis?view=maps', 'GET', '/apis?view=maps'],
  ['search: POST portal/apis/_search?q=weather', 'POST', '/portal/apis/_search?q=weather'],
  ['search: POST portal/apis/_search?q=orders 1', 'POST', '/portal/apis/_search?q=orders%201'],
  ['search: POST apis/_search?q=payments', 'POST', '/apis/_search?q=payments'],
  ['search: POST apis/_search?q=nothing-like-it', 'POST', '/apis/_search?q=nothing-like-it'],
];
try {
  const baseline = await time('GET health (baseline)', { method: 'GET', url: `${M}/health` });
  const results = [];
  for (const [who, headers] of [
    ['visitor', {}],
    ['developer', { authorization: `Bearer ${developerToken}` }],
  ])
    for (const [label, method, url] of calls)
      results.push(await time(`${label} (${who})`, { method, url: `${M}${url}`, headers }));
  console.log(`APIs in the database: ${APIS} (seeded in ${seedMs.toFixed(0)} ms); runs per call: ${RUNS}`);
  console.log(
    `target: under ${TARGET_MS} ms of server time per call (median; round trip: through app.inject)\n`,
  );
  const pad = (s, n) => String(s).padEnd(n);
  console.log(
    `${pad('call', 58)}${pad('server ms', 11)}${pad('p95 ms', 9)}${pad('round trip', 12)}${pad('items', 7)}bytes`,
  );
  for (const r of [baseline, ...results])
    console.log(
      `${pad(r.label, 58)}${pad(r.median.toFixed(2), 11)}${pad(r.p95.toFixed(2), 9)}` +
        `${pad(r.roundTrip.toFixed(2), 12)}${pad(r.count, 7)}${r.size}`,
    );
  const slow = results.filter((r) => r.median >= TARGET_MS);
  console.log(
    slow.length === 0
      ? `\nOK: every call under ${TARGET_MS} ms`
      : `\nSLOW: ${slow.map((r) => r.label).join(', ')}`,
  );
  process.exitCode = slow.length === 0 ? 0 : 1;
} finally {
  await app.close();
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
}
