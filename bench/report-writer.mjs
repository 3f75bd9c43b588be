// Report writer benchmark (issue 18): CPU time per request row of the gateway's SQLite report writer
// (`SqliteRequestWriter`, what the writer thread runs), in one process, for two kinds of traffic:
//   uniform: every call alike (one API, application, status, path and client), as in bench:gateway;
//   diverse: 40 APIs, 300 applications, production-like statuses, methods, paths and clients
//            (bench/lib/analytics-traffic.mjs), which touches many index pages and rollup rows per batch.
// Each kind is written into the schema as migrated and into the same schema without the secondary
// indexes of the requests table (requests_timestamp_ix, requests_api_ix, requests_application_ix), to
// show what they cost. Ids are made as the gateway makes them (UUID v7: time first).
// Rows arrive at a gateway's rate (BENCH_RATE, default 5,000 requests per second), so that a batch covers
// a fraction of a second of traffic, as it does in a gateway, and shares its minute with the batches
// around it. BENCH_ROWS (default 60,000 per run) and BENCH_BATCH (default 1,000, the reporter's batch
// size) tune it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { traffic } from './lib/analytics-traffic.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openStorage, SqliteRequestWriter, requestValues } = await import(
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
