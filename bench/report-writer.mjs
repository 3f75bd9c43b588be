// Report writer benchmark (issue 18): CPU time per request row of the gateway's SQLite report writer
// (`SqliteRequestWriter`, what the writer thread runs), in one process, for two kinds of traffic:
//   uniform: every call alike (one API, application, status, path and client), as in bench:gateway;
//   diverse: 40 APIs, 300 applications, production-like statuses, methods, paths and clients
//            (bench/lib/analytics-traffic.mjs), which touches many index pages and rollup rows per batch.
// Each kind is written into the schema as migrated and into the same schema without the secondary
// indexes of the requests table (requests_timestamp_ix, requests_api_ix, requests_application_ix), to
// show what they cost. Ids are made as the gateway makes them (UUID v7: time first).
// Then the floors of other formats for the same uniform rows: one plain row each (the requests table's
// columns and primary key only: no secondary index, no rollup, no details), and one row per batch holding
// the batch's values serialized (v8.serialize, the structured clone's format): what a report written as
// rows cannot go below, and what writing many requests per row costs before any encoding by column.
// Rows arrive at a gateway's rate (BENCH_RATE, default 5,000 requests per second), so that a batch covers
// a fraction of a second of traffic, as it does in a gateway, and shares its minute with the batches
// around it. BENCH_ROWS (default 60,000 per run) and BENCH_BATCH (default 1,000, the reporter's batch
// size) tune it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import SQLite from 'better-sqlite3';
import { traffic } from './lib/analytics-traffic.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openStorage, SqliteRequestWriter, requestValues, REQUEST_COLUMNS } = await import(
  path.join(root, 'packages/storage/dist/index.js')
);
const { requestId } = await import(path.join(root, 'packages/gateway/dist/http/request-id.js'));

const ROWS = Number(process.env.BENCH_ROWS ?? 60_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 5000);
const SECONDARY = ['requests_timestamp_ix', 'requests_api_ix', 'requests_application_ix'];

/** The rows of a run, as positional values; uniform rows differ only in their ids and times. */
function rowsOf(kind) {
  const rows = [];
  const now = Date.now();
  for (const row of traffic(now, ROWS)()) {
    if (kind === 'uniform') {
      Object.assign(row, {
        api_id: 'api-00',
        application_id: 'app-000',
        plan_id: 'plan-00',
        subscription_id: 'app-000-api-00',
        status: 200,
        method: 'GET',
        path: '/items',
        uri: '/items',
        mapped_path: '/items',
        user_agent: 'autocannon',
        remote_address: '127.0.0.1',
      });
    }
    const at = now + Math.floor((rows.length * 1000) / RATE);
    Object.assign(row, { id: requestId(at), transaction_id: randomUUID(), timestamp: at });
    rows.push(requestValues(row));
  }
  return rows;
}

async function run(kind, withIndexes) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-writer-'));
  try {
    const storage = await openStorage({ dataDir: dir });
    const file = storage.sqlitePath;
    await storage.close();
    if (!withIndexes) {
      const db = new SQLite(file);
      for (const index of SECONDARY) db.exec(`drop index ${index}`);
      db.close();
    }
    const rows = rowsOf(kind);
    const writer = new SqliteRequestWriter(file);
    const cpu = process.cpuUsage();
    for (let i = 0; i < rows.length; i += BATCH) writer.write(rows.slice(i, i + BATCH), []);
    const used = process.cpuUsage(cpu);
    writer.close();
    const us = (micros) => (micros / rows.length).toFixed(1);
    return { user: us(used.user), system: us(used.system), total: us(used.user + used.system) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`report writer: ${ROWS} rows a run, batches of ${BATCH}; CPU microseconds per row`);
console.log('traffic  | requests indexes  | total | user | system');
for (const kind of ['uniform', 'diverse']) {
  for (const withIndexes of [true, false]) {
    const r = await run(kind, withIndexes);
    const label = withIndexes ? 'as migrated      ' : 'no secondary ones';
    console.log(
      `${kind.padEnd(8)} | ${label} | ${r.total.padStart(5)} | ${r.user.padStart(4)} | ${r.system}`,
    );
  }
}

/** CPU microseconds per row of writing `rows` in batches with `write(batch)` inside one transaction each. */
function floor(setup, write) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-floor-'));
  try {
    const db = new SQLite(path.join(dir, 'floor.db'));
    db.pragma('page_size = 16384'); // as openStorage makes a database
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    const statement = setup(db);
    const rows = rowsOf('uniform');
    const transaction = db.transaction((batch) => write(statement, batch)).immediate;
    const cpu = process.cpuUsage();
    for (let i = 0; i < rows.length; i += BATCH) transaction(rows.slice(i, i + BATCH));
    const used = process.cpuUsage(cpu);
    db.close();
    return ((used.user + used.system) / rows.length).toFixed(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const columns = REQUEST_COLUMNS.map((c) => `"${c}"`);
const plain = floor(
  (db) => {
    db.exec(`create table requests (${columns.map((c, i) => (i ? c : `${c} text primary key`)).join(', ')})`);
    return db.prepare(`insert into requests values (${columns.map(() => '?').join(', ')})`);
  },
  (insert, batch) => {
    for (const values of batch) insert.run(values);
  },
);
const perBatch = floor(
  (db) => {
    db.exec(
      'create table request_batches (id integer primary key, first_at bigint, last_at bigint, body blob)',
    );
    return db.prepare('insert into request_batches (first_at, last_at, body) values (?, ?, ?)');
  },
  (insert, batch) => insert.run(batch[0][2], batch.at(-1)[2], v8.serialize(batch)),
);
console.log(`uniform  | a plain row each  | ${plain.padStart(5)} |  (primary key only, no rollup)`);
console.log(`uniform  | one row a batch   | ${perBatch.padStart(5)} |  (the batch serialized, v8.serialize)`);
