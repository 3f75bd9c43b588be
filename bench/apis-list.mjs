// API list benchmark: with 10,000 APIs in a SQLite database, how long `GET apis/` and
// `POST apis/_search?q=` take through the management app (app.inject, no network), for an
// administrator (every API) and for a publisher (PUBLIC APIs plus the ones it owns).
// Baseline in the same run: `GET health`, which answers after one database round trip.
// Target: under 100 ms for each list and search.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { buildManagementApp } from '../packages/management/dist/index.js';
import {
  EventBus,
  insertApi,
  insertUser,
  openStorage,
  replaceApiContextPaths,
  upsertMembership,
} from '../packages/storage/dist/index.js';

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

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-apis-'));
const storage = await openStorage({ dataDir });

async function seed() {
  const now = Date.now();
  const publisherId = randomUUID();
  await insertUser(storage.db, {
    id: publisherId,
    source: 'portico',
    source_id: 'publisher',
    email: 'publisher@example.test',
    firstname: 'Pat',
    lastname: 'Publisher',
    password: null,
    status: 'ACTIVE',
    login_count: 0,
    created_at: now,
    updated_at: now,
  });
  const started = process.hrtime.bigint();
  // One transaction per 1,000 APIs: seeding goes through the repositories, as the app writes.
  for (let from = 0; from < APIS; from += 1000) {
    await storage.db.transaction().execute(async (trx) => {
      for (let i = from; i < Math.min(from + 1000, APIS); i++) {
        const id = randomUUID();
        const word = WORDS[i % WORDS.length];
        const contextPath = `/${word}-${i}`;
        const definition = {
          id,
          name: `${word} ${i}`,
          version: '1.0',
          tags: [],
          proxy: {
            context_path: contextPath,
            strip_context_path: false,
            preserve_host: false,
            groups: [
              {
                name: 'default-group',
                endpoints: [{ name: 'default', target: `https://${word}.example.com` }],
              },
            ],
          },
          paths: { '/': [] },
        };
        await insertApi(trx, {
          id,
          name: `${word} ${i}`,
          version: '1.0',
          description: `The ${word} API number ${i}, with a description of a usual length for a catalogue.`,
          context_path: contextPath,
          definition: JSON.stringify(definition),
          state: i % 2 === 0 ? 'STARTED' : 'STOPPED',
          visibility: i % 3 === 0 ? 'PUBLIC' : 'PRIVATE',
          lifecycle_state: 'CREATED',
          labels: JSON.stringify([word]),
          views: '[]',
          groups: '[]',
          created_at: now,
          updated_at: now,
        });
        await replaceApiContextPaths(trx, id, [{ host: '', path: contextPath }]);
        await upsertMembership(trx, {
          id: randomUUID(),
          member_id: i % 5 === 0 ? publisherId : 'someone-else',
          member_type: 'USER',
          reference_type: 'API',
          reference_id: id,
          role_scope: 'API',
          role_name: 'PRIMARY_OWNER',
          created_at: now,
          updated_at: now,
        });
      }
    });
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const seedMs = await seed();
const { app, services } = await buildManagementApp({ storage, bus: new EventBus() });

const login = async (username, password) => {
  const res = await app.inject({
    method: 'POST',
    url: '/management/user/login',
    headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
  });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return res.json().token;
};
// The publisher has no password (seeded without one): its session is issued directly.
const adminToken = await login('admin', 'admin');
const publisherRow = await storage.db
  .selectFrom('users')
  .select('id')
  .where('source_id', '=', 'publisher')
  .executeTakeFirstOrThrow();
const publisherToken = (await services.tokens.issue(publisherRow.id)).token;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function time(label, request) {
  let size = 0;
  let count = 0;
  for (let i = 0; i < 3; i++) await app.inject(request); // warm-up
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    const res = await app.inject(request);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    size = res.rawPayload.length;
    const body = res.json();
    count = Array.isArray(body) ? body.length : 1;
  }
  return { label, median: median(samples), p95: p95(samples), size, count };
}

const auth = (token) => ({ authorization: `Bearer ${token}` });
try {
  const baseline = await time('GET health (baseline)', { method: 'GET', url: '/management/health' });
  const results = [
    await time('GET apis/ (admin)', { method: 'GET', url: '/management/apis', headers: auth(adminToken) }),
    await time('GET apis/ (publisher)', {
      method: 'GET',
      url: '/management/apis',
      headers: auth(publisherToken),
    }),
    await time('GET apis/ (anonymous)', { method: 'GET', url: '/management/apis' }),
    await time('POST apis/_search?q=weather (admin)', {
      method: 'POST',
      url: '/management/apis/_search?q=weather',
      headers: auth(adminToken),
    }),
    await time('POST apis/_search?q=orders 1 (publisher)', {
      method: 'POST',
      url: '/management/apis/_search?q=orders%201',
      headers: auth(publisherToken),
    }),
  ];
  console.log(`APIs in the database: ${APIS} (seeded through the repositories in ${seedMs.toFixed(0)} ms)`);
  console.log(`runs per call: ${RUNS}; target: under ${TARGET_MS} ms\n`);
  const pad = (s, n) => String(s).padEnd(n);
  console.log(
    `${pad('call', 42)}${pad('median ms', 11)}${pad('p95 ms', 9)}${pad('items', 7)}${pad('bytes', 10)}ratio to baseline`,
  );
  for (const r of [baseline, ...results]) {
    console.log(
      `${pad(r.label, 42)}${pad(r.median.toFixed(2), 11)}${pad(r.p95.toFixed(2), 9)}${pad(r.count, 7)}${pad(r.size, 10)}${(r.median / baseline.median).toFixed(1)}x`,
    );
  }
  const slow = results.filter((r) => r.median >= TARGET_MS);
  console.log(
    slow.length === 0
      ? `\nOK: every list and search under ${TARGET_MS} ms`
      : `\nSLOW: ${slow.map((r) => r.label).join(', ')}`,
  );
  process.exitCode = slow.length === 0 ? 0 : 1;
} finally {
  await app.close();
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
}
