// Reporting benchmark (issue 18): what reporting a request costs the gateway's own threads, apart from
// the proxying around it: the gateway's Reporter and its SQLite writer thread (WorkerReportSink), fed at
// a gateway's rate with records as the gateway makes them (a UUID v7 request id that is also the
// transaction id, an API-key call's ids and names), against a baseline that makes the same records and
// drops them. Printed: CPU microseconds per record of the main thread, the report-writer thread and
// V8's helper threads (`node`), for both, and reporting's share (the difference), each the median of
// BENCH_ROUNDS interleaved rounds. Records arrive in 1 ms turns, as requests reach a gateway's event
// loop, so that parts of the reporter fill and leave as they do under traffic.
// BENCH_RATE (records a second, default 9,000: half the plain proxy's capacity in bench:gateway on a
// 2-core box), BENCH_DURATION (seconds a run, default 6) and BENCH_ROUNDS (default 3) tune it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, median, threadTicks } from './lib/measure.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (file) => import(path.join(root, file));
const { openStorage } = await dist('packages/storage/dist/index.js');
const { Reporter, SQLITE_BATCH_SIZE, DEFAULT_REPORTER_OPTIONS } = await dist(
  'packages/gateway/dist/reporting/reporter.js',
);
const { reportSinkFor } = await dist('packages/gateway/dist/reporting/report-sink.js');
const { requestId } = await dist('packages/gateway/dist/http/request-id.js');

const RATE = Number(process.env.BENCH_RATE ?? 9000);
const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** A record of an API-key call, as `startExchange` and the handler fill it in. */
function record(now) {
  const id = requestId(now);
  return {
    id,
    transaction_id: id,
    timestamp: now,
    gateway: 'bench-gateway',
    api_id: '6f1d1a52-2a5e-4cbb-9a43-5b1f3c1f7a10',
    application_id: '0b7e33c4-54a1-4bd4-8f6e-0a3e6f2b9c21',
    plan_id: '9a2c61f0-7d3b-4e8a-b1c5-3f4d2e1a0b98',
    subscription_id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
    api_key: 'bench-key-0123456789abcdef0123456789',
    user: null,
    tenant: null,
    method: 'GET',
    path: '/keyed/items',
    uri: '/keyed/items',
    mapped_path: null,
    host: '127.0.0.1:8082',
    status: 200,
    request_content_length: 0,
    response_content_length: 27,
    response_time: 1,
    api_response_time: 0,
    latency: 1,
    endpoint: 'http://127.0.0.1:9000/',
    remote_address: '127.0.0.1',
    user_agent: 'bench',
    security_type: 'API_KEY',
    error_key: null,
    message: null,
    has_log: 0,
  };
}

/** Feeds records for `seconds` at RATE, reported or dropped; resolves with how many were made. */
function feed(seconds, report) {
  return new Promise((resolve) => {
    let made = 0;
    const start = performance.now();
    const turn = setInterval(() => {
      const elapsed = performance.now() - start;
      const due = Math.floor((elapsed / 1000) * RATE);
      for (; made < due; made++) {
        const r = record(Date.now());
        if (report) report(r);
      }
      if (elapsed >= seconds * 1000) {
        clearInterval(turn);
        resolve(made);
      }
    }, 1);
  });
}

/** CPU microseconds per record of the main thread, the report writer and V8's helpers, and their sum. */
function perRecord(before, after, records) {
  const { byThread } = cpuPerRequest(before, after, records);
  const out = { main: 0, 'report-writer': 0, node: 0 };
  for (const name of Object.keys(out)) out[name] = byThread[name] ?? 0;
  out.total = out.main + out['report-writer'] + out.node;
  return out;
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-reporter-'));
  // The writer thread is unreferenced, as in the gateway: this keeps the process up while it works.
  const alive = setInterval(() => {}, 1000);
  const storage = await openStorage({ dataDir: work });
  const options = { ...DEFAULT_REPORTER_OPTIONS, batchSize: SQLITE_BATCH_SIZE };
  const reporter = new Reporter(reportSinkFor(storage, options), options);
  try {
    const report = (r) => reporter.report(r);
    await feed(2, report); // warm-up, not kept
    await reporter.flush();
    const runs = { baseline: [], reporting: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, sink] of [
        ['baseline', undefined],
        ['reporting', report],
      ]) {
        const before = threadTicks(process.pid);
        const records = await feed(DURATION, sink);
        // The last part's transaction belongs to this run.
        await reporter.flush();
        runs[name].push(perRecord(before, threadTicks(process.pid), records));
      }
    }
    const med = (name, key) => median(runs[name].map((r) => r[key] ?? 0));
    const line = (name) =>
      `${name.padEnd(10)} ${med(name, 'total').toFixed(2).padStart(6)}  (main ${med(name, 'main').toFixed(2)}, ` +
      `report-writer ${med(name, 'report-writer').toFixed(2)}, node ${med(name, 'node').toFixed(2)})`;
    console.log(
      `Reporting benchmark: ${RATE} records a second, ${DURATION} s a run, median of ${ROUNDS} interleaved rounds`,
    );
    console.log('CPU us per record (the gateway process: main thread, report writer, V8 helpers):');
    console.log(line('baseline'));
    console.log(line('reporting'));
    const share = (key) => median(runs.reporting.map((r, i) => (r[key] ?? 0) - (runs.baseline[i][key] ?? 0)));
    console.log(
      `reporting's share: ${share('total').toFixed(2)} us a record (main ${share('main').toFixed(2)}, ` +
        `report-writer ${share('report-writer').toFixed(2)}, node ${share('node').toFixed(2)}); ` +
        `written ${reporter.written}, dropped ${reporter.dropped}`,
    );
  } finally {
    await reporter.close();
    await storage.close();
    clearInterval(alive);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
