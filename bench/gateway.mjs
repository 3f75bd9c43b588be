// Gateway benchmark: requests per second and p50/p99 latency, in one run on one machine, for
//   a direct call to the backend, a plain undici proxy (the baseline), nginx (when installed),
//   fast-gateway 3.4.7 with a header check, and Portico's gateway with (a) a key-less plan and
//   (b) an API-key plan with rate limit and reporting, and (a) with OpenTelemetry tracing configured,
//   sampling 0 (c) and sampling 1 to a local OTLP receiver (d); each as a ratio to the plain proxy.
// Targets of tracing: (c) within noise of (a), (d) CPU per request at most 15 % above (a), 0 calls failed;
//   measured at saturation and at one fixed rate for (a), (c) and (d) (half of (d)'s capacity); at
//   saturation and at that rate against (c') and (d') in (c)'s and (d)'s own processes: an API whose
//   settings turn tracing off; and in pairs, (d)'s process and a twin loaded at once, traced API against
//   untraced, swapped every round (lib/paired.mjs).
// Target: (b) at least 0.85 of the plain proxy's throughput, p99 at most 1 ms above it, no dropped report.
// Issue 18's CPU and p99 figures are also taken with the plain proxy and (a) or (b) loaded at once, a
//   quarter of the proxy's capacity each, so that both meet the same state of a shared VM (lib/paired.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, load, median, medianCpu, nginxWorker, threadTicks } from './lib/measure.mjs';
import { children, freePort, startNginx, startNode, startPortico, waitFor } from './lib/processes.mjs';
import { measureAgainstBaseline, measurePaired } from './lib/paired.mjs';
import { printReport } from './lib/report.mjs';
import { seedBenchApis } from './lib/seed.mjs';
import { measureTracingAtRate, measureTracingAtSaturation } from './lib/tracing-measures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
// Rounds of every run, interleaved, so that a machine whose speed drifts (a shared VM) affects every
// run alike; each figure printed is the median over the rounds, each ratio the median of the rounds' ratios.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEY = 'bench-key-0123456789abcdef0123456789';
// Only the runs whose name matches (the baseline always runs), e.g. BENCH_ONLY=portico.
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
// Extra node flags for Portico's gateway process, to try a runtime setting against the same baseline.
const GATEWAY_NODE_ARGS = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-gw-'));
  const results = [];
  try {
    const backendPort = await freePort();
    const backend = await startNode(path.join(here, 'gateway/backend.mjs'), { PORT: String(backendPort) });
    const target = `http://127.0.0.1:${backendPort}`;
    await waitFor(`${target}/`);

    // Portico's data: a key-less API and an API-key API with a (high) rate limit, deployed in SQLite.
    const { openStorage } = await import(path.join(root, 'packages/storage/dist/index.js'));
    const storage = await openStorage({ dataDir: work });
    await seedBenchApis(storage, target, KEY);

    const proxyPort = await freePort();
    const proxy = await startNode(path.join(here, 'gateway/undici-proxy.mjs'), {
      PORT: String(proxyPort),
      TARGET: target,
    });
    const headersPort = await freePort();
    // The control of the paired measure: a second plain proxy, against which the first should be 1.00.
    const controlPort = await freePort();
    const control = await startNode(path.join(here, 'gateway/undici-proxy.mjs'), {
      PORT: String(controlPort),
      TARGET: target,
    });
    const proxyWithHeaders = await startNode(path.join(here, 'gateway/undici-proxy.mjs'), {
      PORT: String(headersPort),
      TARGET: target,
      WITH_HEADERS: '1',
    });
    const fastPort = await freePort();
    const fast = await startNode(path.join(here, 'gateway/fast-gateway.mjs'), {
      PORT: String(fastPort),
      TARGET: target,
      KEY,
    });
    const gatewayPort = await freePort();
    const portico = startPortico(work, gatewayPort, GATEWAY_NODE_ARGS);
    // Tracing: two more gateways on the same data, one sampling nothing, one everything to a local receiver.
    const sinkPort = await freePort();
    await startNode(path.join(here, 'gateway/otlp-sink.mjs'), { PORT: String(sinkPort) });
    const tracing = (sampler) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}`,
      OTEL_TRACES_SAMPLER: sampler,
      OTEL_TRACES_SAMPLER_ARG: sampler === 'traceidratio' ? '0' : '',
    });
    const tracedOffPort = await freePort();
    const tracedOff = startPortico(work, tracedOffPort, GATEWAY_NODE_ARGS, tracing('traceidratio'));
    const tracedAllPort = await freePort();
    const tracedAll = startPortico(work, tracedAllPort, GATEWAY_NODE_ARGS, tracing('always_on'));
    // (d)'s twin, for tracing's cost measured in pairs (lib/paired.mjs).
    const twinPort = await freePort();
    const twin = startPortico(work, twinPort, GATEWAY_NODE_ARGS, tracing('always_on'));
    const nginxPort = await freePort();
    const nginx = startNginx(work, nginxPort, backendPort);

    await waitFor(`http://127.0.0.1:${proxyPort}/`);
    await waitFor(`http://127.0.0.1:${controlPort}/`);
    await waitFor(`http://127.0.0.1:${headersPort}/`);
    await waitFor(`http://127.0.0.1:${fastPort}/bench/`, { 'x-api-key': KEY });
    await waitFor(`http://127.0.0.1:${gatewayPort}/keyless/`);
    await waitFor(`http://127.0.0.1:${gatewayPort}/keyed/`, { 'x-api-key': KEY });
    await waitFor(`http://127.0.0.1:${tracedOffPort}/keyless/`);
    await waitFor(`http://127.0.0.1:${tracedAllPort}/keyless/`);
    await waitFor(`http://127.0.0.1:${tracedOffPort}/untraced/`);
    await waitFor(`http://127.0.0.1:${tracedAllPort}/untraced/`);
    await waitFor(`http://127.0.0.1:${twinPort}/untraced/`);
    if (nginx) await waitFor(`http://127.0.0.1:${nginxPort}/`);

    const runs = [
      ['direct to the backend', `${target}/items`, {}, backend.pid],
      ['plain undici proxy (baseline)', `http://127.0.0.1:${proxyPort}/items`, {}, proxy.pid],
      [
        "plain undici proxy + the spec's headers",
        `http://127.0.0.1:${headersPort}/items`,
        {},
        proxyWithHeaders.pid,
      ],
      ...(nginx ? [['nginx', `http://127.0.0.1:${nginxPort}/items`, {}, nginxWorker(nginx.pid)]] : []),
      [
        'fast-gateway 3.4.7 + header check',
        `http://127.0.0.1:${fastPort}/bench/items`,
        { 'x-api-key': KEY },
        fast.pid,
      ],
      ['portico (a) key-less plan', `http://127.0.0.1:${gatewayPort}/keyless/items`, {}, portico.pid],
      [
        'portico (b) API key + rate limit + reporting',
        `http://127.0.0.1:${gatewayPort}/keyed/items`,
        { 'x-api-key': KEY },
        portico.pid,
      ],
      [
        'portico (c) key-less + tracing, sampling 0',
        `http://127.0.0.1:${tracedOffPort}/keyless/items`,
        {},
        tracedOff.pid,
      ],
      [
        'portico (d) key-less + tracing, sampling 1 to a local receiver',
        `http://127.0.0.1:${tracedAllPort}/keyless/items`,
        {},
        tracedAll.pid,
      ],
    ];
    // Only at the fixed rate: (c)'s and (d)'s processes, an API whose settings turn tracing off.
    const untraced = [
      [
        "portico (c') (c)'s process, an API with tracing off",
        `http://127.0.0.1:${tracedOffPort}/untraced/items`,
        {},
        tracedOff.pid,
      ],
      [
        "portico (d') (d)'s process, an API with tracing off",
        `http://127.0.0.1:${tracedAllPort}/untraced/items`,
        {},
        tracedAll.pid,
      ],
    ];
    const before = await reportedRequests(storage);
    const selected = runs.filter(([n]) => !ONLY || ONLY.test(n) || n.startsWith('plain'));
    for (const [, url, headers] of selected) load(url, headers, Math.min(DURATION, 5), CONNECTIONS); // warm-up, not kept
    const rounds = selected.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      selected.forEach(([, url, headers, pid], i) => {
        const before = threadTicks(pid);
        const r = load(url, headers, DURATION, CONNECTIONS);
        rounds[i].push({ ...r, cpu: cpuPerRequest(before, threadTicks(pid), r.total) });
      });
    }
    const baseIndex = selected.findIndex(([n]) => n.startsWith('plain'));
    // Issue 18's latency target: at a fixed rate of half the plain proxy's capacity (not saturation),
    // the p99 of Portico's (a) and (b) against the plain proxy's, each the median over the rounds. Six
    // times as many rounds of a third of the duration: a stall of the shared VM (the plain proxy's own p99
    // ranges from 2 to 36 ms between rounds of 6 s there) spoils one short round, and the median of 18
    // rounds' differences moves less than that of 6 (whose spread was about ±4 ms on a slow day).
    const fixedRate = median(rounds[baseIndex].map((r) => r.rps)) / 2;
    const fixedRuns = selected.filter(
      ([n]) => n.startsWith('plain undici proxy (') || /^portico \([ab]\)/.test(n),
    );
    const fixed = fixedRuns.map(() => []);
    for (let round = 0; round < ROUNDS * 6; round++)
      fixedRuns.forEach(([, url, headers, pid], i) => {
        const before = threadTicks(pid);
        const r = load(url, headers, DURATION / 3, CONNECTIONS, fixedRate);
        fixed[i].push({ ...r, cpu: cpuPerRequest(before, threadTicks(pid), r.total) });
      });
    // At one rate every server gets as many requests per turn of its event loop: the fairest CPU figure.
    const atFixedRate = fixedRuns.map(([name], i) => ({
      name,
      rps: median(fixed[i].map((r) => r.rps)),
      p50: median(fixed[i].map((r) => r.p50)),
      p99: median(fixed[i].map((r) => r.p99)),
      p99s: fixed[i].map((r) => r.p99),
      // Each round's p99 less the plain proxy's of the same round (the runs of a round are minutes
      // apart at most): a stall of the shared VM lands in one round and drops out of the median.
      p99Above: median(fixed[i].map((r, k) => r.p99 - fixed[0][k].p99)),
      bad: fixed[i].reduce((a, r) => a + r.non2xx + r.errors, 0),
      // The load's own pauses over the rounds, and the requests in flight across them (not timed).
      stalls: fixed[i].reduce((a, r) => a + (r.stalls?.count ?? 0), 0),
      untimed: fixed[i].reduce((a, r) => a + (r.stalls?.requests ?? 0), 0),
      cpu: medianCpu(fixed[i].map((r) => r.cpu)),
      cpuRatios: fixed[i].map((r, k) => r.cpu.total / fixed[0][k].cpu.total),
    }));
    // The same two figures with the proxy and (a) or (b) loaded at once, a quarter of the proxy's
    // capacity each (as much load on the machine as one at half): both meet the same stalls.
    const againstProxy = [];
    // The proxy with the spec's headers too: what those headers alone cost, measured the same way.
    const pairedRuns = selected.filter(
      ([n]) => n.startsWith("plain undici proxy + the spec's headers") || /^portico \([ab]\)/.test(n),
    );
    // The control first: two processes of the same proxy give the noise floor of both figures.
    pairedRuns.unshift([
      'plain undici proxy, a second process (control)',
      `http://127.0.0.1:${controlPort}/items`,
      {},
      control.pid,
    ]);
    for (const [name, url, headers, pid] of pairedRuns)
      againstProxy.push({
        name,
        ...(await measureAgainstBaseline(
          { url: fixedRuns[0][1], headers: fixedRuns[0][2], pid: fixedRuns[0][3] },
          { url, headers, pid },
          { rate: fixedRate / 2, rounds: ROUNDS * 6, duration: DURATION / 3, connections: CONNECTIONS },
        )),
      });
    const tracingLoad = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS };
    const tracingAtSaturation = measureTracingAtSaturation(selected, untraced, tracingLoad);
    const tracingAtRate = measureTracingAtRate(selected, rounds, untraced, tracingLoad);
    if (tracingAtRate) {
      const apis = (port) => ({
        traced: `http://127.0.0.1:${port}/keyless/items`,
        untraced: `http://127.0.0.1:${port}/untraced/items`,
      });
      // Two loads at once: a quarter of (d)'s capacity each, as much load on the machine as one at half.
      tracingAtRate.paired = await measurePaired(
        [
          { pid: tracedAll.pid, ...apis(tracedAllPort) },
          { pid: twin.pid, ...apis(twinPort) },
        ],
        {
          rate: tracingAtRate.rate / 2,
          // Two runs of 18 rounds agreed within about 0.05 on a noisy day; 36 halve the spread.
          rounds: ROUNDS * 12,
          duration: DURATION / 3,
          connections: CONNECTIONS,
        },
      );
    }
    selected.forEach(([name], i) => {
      const mine = rounds[i];
      results.push({
        name,
        rps: median(mine.map((r) => r.rps)),
        ratio: median(mine.map((r, k) => r.rps / rounds[baseIndex][k].rps)),
        p50: median(mine.map((r) => r.p50)),
        p99: median(mine.map((r) => r.p99)),
        p99s: mine.map((r) => r.p99),
        rpss: mine.map((r) => Math.round(r.rps)),
        bad: mine.reduce((a, r) => a + r.non2xx + r.errors, 0),
        // CPU per request: the median round's; the ratios are each round's against the baseline's round.
        cpu: medianCpu(mine.map((r) => r.cpu)),
        cpuRatios: mine.map((r, k) => r.cpu.total / rounds[baseIndex][k].cpu.total),
      });
    });
    // Every request of (b) and its warm-up must be reported: let the last batch land, then count.
    await new Promise((r) => setTimeout(r, 2500));
    const reported = (await reportedRequests(storage)) - before;
    // The gateways' part ends with the segments; the management server's indexer thread writes the rows.
    // Its cost is shown beside the gateway's: the same statements, here on this process's one thread.
    const indexing = await indexAll(storage);
    const instance = await storage.db
      .selectFrom('instances')
      .select('dropped_reports')
      .where('state', '=', 'STARTED')
      .executeTakeFirst();
    await storage.close();

    printReport({
      results,
      atFixedRate,
      fixedRate,
      againstProxy,
      connections: CONNECTIONS,
      duration: DURATION,
      rounds: ROUNDS,
      reported,
      indexing,
      instance,
      tracingAtRate,
      tracingAtSaturation,
    });
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(work, { recursive: true, force: true });
  }
}

/** Requests reported: those in segments (not yet indexed) and those in rows. */
async function reportedRequests(storage) {
  const [rows, segments] = await Promise.all([
    storage.db
      .selectFrom('requests')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
    storage.db
      .selectFrom('request_segments')
      .select((eb) => eb.fn.sum('count').as('n'))
      .executeTakeFirst(),
  ]);
  return Number(rows.n) + Number(segments.n ?? 0);
}

/** Indexes every segment as the management server's thread does: requests indexed, CPU us per request. */
async function indexAll(storage) {
  const { SqliteRequestWriter, indexSegmentsOf } = await import(
    path.join(root, 'packages/storage/dist/index.js')
  );
  const writer = new SqliteRequestWriter(storage.sqlitePath);
  try {
    const start = process.cpuUsage();
    const result = await indexSegmentsOf(writer.segments());
    const cpu = process.cpuUsage(start);
    return { requests: result.requests, us: result.requests ? (cpu.user + cpu.system) / result.requests : 0 };
  } finally {
    writer.close();
  }
}

main().catch((error) => {
  console.error(error);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
