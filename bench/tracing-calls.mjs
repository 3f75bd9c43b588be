// Tracing's own work for one call through the gateway, in a loop: the three spans of a key-less call
// (server, plan security, upstream client) through RequestTrace, the gateway's tracer and its encoding
// batch processor (the export answers at once), in CPU microseconds a call. Baseline: the same loop making
// the call's record and headers without tracing. Each argument names a copy of the gateway's built
// `dist` folder (A/B of two builds, alternating in one process); none: the current build. Keep copies
// under packages/gateway (their packages resolve from there), in a folder named dist (ignored by git):
//   cp -r packages/gateway/dist packages/gateway/before/dist   (then change, build)
//   npm run bench:tracing-calls -- packages/gateway/before/dist packages/gateway/dist
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { median } from './lib/measure.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gateway = path.join(root, 'packages/gateway');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const dists = process.argv.slice(2).length ? process.argv.slice(2) : [path.join(gateway, 'dist')];
// Packages resolve from the gateway's folder, wherever the copies are.
const { createRequire } = await import('node:module');
const require = createRequire(path.join(gateway, 'package.json'));
const { AlwaysOnSampler } = require('@opentelemetry/sdk-trace-base');
const { resourceFromAttributes } = require('@opentelemetry/resources');

async function variant(dist) {
  const at = (file) => import(pathToFileURL(path.resolve(dist, 'tracing', file)).href);
  const { GatewayTracer } = await at('gateway-span.js');
  const { EncodingBatchProcessor } = await at('encoding-processor.js');
  const { RequestTrace } = await at('request-trace.js');
  let spans = 0;
  const processor = new EncodingBatchProcessor(
    { export: (batch, done) => ((spans += batch.count), done({ code: 0 })), shutdown: async () => {} },
    { maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 1000, exportTimeoutMillis: 10_000 },
    () => {},
  );
  const resource = resourceFromAttributes({ 'service.name': 'portico-gateway' });
  const tracer = new GatewayTracer(
    new AlwaysOnSampler(),
    resource,
    { name: 'portico', version: '1' },
    processor,
  );
  return { name: path.relative(root, dist), tracer, RequestTrace, times: [], spans: () => spans };
}

const api = { id: '6f1d3c52-4a8e-4b7a-9a51-1c2d3e4f5a6b', name: 'Orders', tracing: { enabled: true } };
const req = { headers: { host: '127.0.0.1:8082', 'user-agent': 'autocannon' }, httpVersion: '1.1' };
const plan = { plan: { id: '0b9e7c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c', name: 'Free' } };
const target = new URL('http://127.0.0.1:9999/items');
const record = (i) => ({
  method: 'GET',
  id: `req-${i}`,
  transaction_id: `req-${i}`,
  remote_address: '127.0.0.1',
  user_agent: 'autocannon',
  status: 200,
  timestamp: Date.now(),
  error_key: null,
});

function call(v, i) {
  const r = record(i);
  const headers = { accept: '*/*' };
  if (!v) return headers;
  const trace = new v.RequestTrace(v.tracer, req, r, api, '/orders');
  // Builds before CallSpans made plan security's span as a child like any other.
  if (trace.securityStarted) {
    trace.securityStarted();
    trace.securityEnded(undefined);
  } else trace.endChild(trace.child('plan security'));
  trace.admitted(plan, {}, 'KEY_LESS');
  trace.routed('GET', '/orders', undefined);
  trace.upstream(headers, 'GET');
  trace.upstreamDone(target, 200);
  trace.end(r);
  return headers;
}

async function timed(v) {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    call(v, i);
    // Let the processor's timers and the event loop run, as between a gateway's calls.
    if (i % 512 === 0) await new Promise(setImmediate);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

const variants = await Promise.all(dists.map(variant));
const baseline = [];
for (let round = 0; round < ROUNDS; round++) {
  baseline.push(await timed(undefined));
  for (const v of variants) v.times.push(await timed(v));
}
const base = median(baseline);
console.log(
  `\nTracing's work for one call (three spans, encoded): ${CALLS} calls, median of ${ROUNDS} rounds\n`,
);
console.log(`  baseline, the call's record and headers only    ${base.toFixed(2)} us`);
for (const v of variants) {
  const us = median(v.times) - base;
  console.log(
    `  ${v.name.padEnd(46)} ${us.toFixed(2)} us a call above the baseline (${v.spans()} spans exported)`,
  );
}
