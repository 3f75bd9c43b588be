// Where a gateway's CPU goes, measured against a baseline loaded at the same moment: two servers under
// the same steady load (`bench/lib/steady-load.mjs`), each recorded by Linux `perf` (a CPU clock profile
// of every thread, JIT code named through node's --perf-basic-prof), then CPU microseconds per request of
// each by shared object (node's binary with V8's builtins, JIT code, the kernel, libc) and the functions
// whose cost differs most. Node's own --cpu-prof samples wall-clock time and counts the native work done
// inside the event loop's poll phase (parsing, socket reads and writes) as idle; perf counts every
// cycle of the process. Pairs (BENCH_PAIR):
//   tracing  two gateways with tracing at sampling 1 to a local receiver: an API traced against one with
//            tracing off in its settings (issue 23), plus the inclusive cost of the tracing code;
//   proxy-a  the plain undici proxy against Portico's key-less plan (issue 18);
//   proxy-b  the plain undici proxy against Portico's API key + rate limit + reporting (issue 18).
// BENCH_RATE (requests a second to each, default 1500), BENCH_DURATION (s, default 20), BENCH_TOP (20),
// BENCH_WARMUP (s of load before, not recorded, default 20: V8 still optimizes the hot path for about
// 15 s at 1,500 req/s, and a recording that starts earlier counts that compilation, 15-20 us a request).
// Then the measured server's flame graph as text (frames of BENCH_TREE_MIN us a request or more,
// default 3); BENCH_FOLDED=<folder> also writes each server's folded stacks there (<name>.folded), for
// flamegraph.pl, inferno-flamegraph or speedscope.
// Needs `perf` (Debian: linux-perf) and a kernel that lets root record (perf_event_paranoid <= 2).
// A few functions may be misnamed: node's map file keeps the names of code that V8 has since freed, and
// new code at the same address is shown under the old name (a module loader's function in a hot path).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, loadAsync, threadTicks } from './lib/measure.mjs';
import { children, freePort, startNode, startPortico, waitFor } from './lib/processes.mjs';
import { flameTree, foldedText, perfBreakdown } from './lib/perf-profile.mjs';
import { seedBenchApis } from './lib/seed.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const PAIR = process.env.BENCH_PAIR ?? 'tracing';
const RATE = Number(process.env.BENCH_RATE ?? 1500);
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const TOP = Number(process.env.BENCH_TOP ?? 20);
const TREE_MIN = Number(process.env.BENCH_TREE_MIN ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const FOLDED = process.env.BENCH_FOLDED ? path.resolve(process.env.BENCH_FOLDED) : undefined;
const KEY = 'bench-key-0123456789abcdef0123456789';
const PERF_ARGS = ['--perf-basic-prof'];

async function main() {
  if (!['tracing', 'proxy-a', 'proxy-b'].includes(PAIR)) throw new Error(`BENCH_PAIR: ${PAIR} is not a pair`);
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('perf is not installed (Debian: apt-get install linux-perf)');
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'portico-profile-'));
  // --perf-basic-prof also makes V8 write a log per isolate in the current folder: the servers run in
  // the temporary one, which goes at the end.
  process.chdir(work);
  try {
    const backendPort = await freePort();
    await startNode(path.join(here, 'gateway/backend.mjs'), { PORT: String(backendPort) });
    const target = `http://127.0.0.1:${backendPort}`;
    await waitFor(`${target}/`);
    const { openStorage } = await import(path.join(root, 'packages/storage/dist/index.js'));
    const storage = await openStorage({ dataDir: work });
    await seedBenchApis(storage, target, KEY);
    await storage.close();

    const servers = PAIR === 'tracing' ? await tracingPair(work) : await proxyPair(work, target);
    for (const s of servers) await waitFor(s.url, s.headers);
    // Warm-up (not kept): both paths compiled and optimized before the recording.
    await Promise.all(servers.map((s) => loadAsync(s.url, s.headers, WARMUP, 50, RATE)));
    const before = servers.map((s) => threadTicks(s.pid));
    // The recording leaves out the load's first and last two seconds.
    const recordFor = Math.max(DURATION - 4, 1);
    const recordings = servers.map((s) => {
      const file = path.join(work, `${s.name}.perf.data`);
      const perf = spawn(
        'perf',
        [
          'record',
          '-e',
          'cpu-clock',
          '-F',
          '1999',
          '-g',
          '-p',
          String(s.pid),
          '-o',
          file,
          '--',
          'sleep',
          String(recordFor),
        ],
        { stdio: 'ignore' },
      );
      return { file, done: new Promise((resolve) => perf.on('close', resolve)) };
    });
    const results = await Promise.all(servers.map((s) => loadAsync(s.url, s.headers, DURATION, 50, RATE)));
    await Promise.all(recordings.map((r) => r.done));
    const cpu = servers.map((s, i) => cpuPerRequest(before[i], threadTicks(s.pid), results[i].total));
    const requests = RATE * recordFor;
    const [base, measured] = servers.map((s, i) =>
      perfBreakdown(recordings[i].file, requests, s.inclusive ?? []),
    );

    console.log(`Profile of ${PAIR}: ${RATE} req/s to each, ${DURATION} s, perf over ${recordFor} s\n`);
    servers.forEach((s, i) =>
      console.log(
        `${s.name.padEnd(34)} ${cpu[i].total} us a request (${cpu[i].parts}; sys ${cpu[i].sys}), p99 ${results[i].p99} ms, non-2xx ${results[i].non2xx}`,
      ),
    );
    console.log(
      `\nCPU us a request by shared object (perf)      ${servers[0].name.padStart(12)} ${servers[1].name.padStart(12)}`,
    );
    for (const dso of new Set([...Object.keys(base.byObject), ...Object.keys(measured.byObject)]))
      console.log(
        `  ${dso.padEnd(44)} ${(base.byObject[dso] ?? 0).toFixed(1).padStart(12)} ${(measured.byObject[dso] ?? 0).toFixed(1).padStart(12)}`,
      );
    console.log(
      `  ${'total'.padEnd(44)} ${base.total.toFixed(1).padStart(12)} ${measured.total.toFixed(1).padStart(12)}`,
    );
    for (const [pattern, us] of Object.entries(measured.inclusive))
      console.log(
        `\n${servers[1].name}: ${us.toFixed(1)} us a request in frames matching ${pattern} (with what they call)`,
      );
    console.log(
      `\nThe functions whose self time differs most (us a request, ${servers[1].name} less ${servers[0].name}):`,
    );
    const names = new Set([...Object.keys(base.bySymbol), ...Object.keys(measured.bySymbol)]);
    const diffs = [...names].map((n) => [n, (measured.bySymbol[n] ?? 0) - (base.bySymbol[n] ?? 0)]);
    diffs.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
    for (const [name, us] of diffs.slice(0, TOP)) console.log(`  ${us.toFixed(2).padStart(7)}  ${name}`);
    console.log(
      `\n${servers[1].name}: flame graph as text (inclusive us a request, frames of ${TREE_MIN} or more)`,
    );
    console.log(flameTree(measured, TREE_MIN));
    if (FOLDED) {
      mkdirSync(FOLDED, { recursive: true });
      [base, measured].forEach((b, i) => {
        const file = path.join(
          FOLDED,
          `${servers[i].name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.folded`,
        );
        writeFileSync(file, foldedText(b));
        console.log(`folded stacks: ${file}`);
      });
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    for (const c of children) if (existsSync(`/tmp/perf-${c.pid}.map`)) rmSync(`/tmp/perf-${c.pid}.map`);
    process.chdir(root);
    rmSync(work, { recursive: true, force: true });
  }
}

/** Two gateways with tracing at sampling 1: one loaded on the untraced API (the baseline), one on the traced. */
async function tracingPair(work) {
  const sinkPort = await freePort();
  await startNode(path.join(here, 'gateway/otlp-sink.mjs'), { PORT: String(sinkPort) });
  const env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}`,
    OTEL_TRACES_SAMPLER: 'always_on',
  };
  const servers = [];
  for (const [name, api] of [
    ['untraced API', 'untraced'],
    ['traced API', 'keyless'],
  ]) {
    const port = await freePort();
    const { pid } = startPortico(work, port, PERF_ARGS, env);
    servers.push({ name, pid, url: `http://127.0.0.1:${port}/${api}/items`, headers: {} });
  }
  servers[1].inclusive = ['tracing/|@opentelemetry'];
  return servers;
}

/** The plain undici proxy (the baseline) and Portico's (a) or (b). */
async function proxyPair(work, target) {
  const proxyPort = await freePort();
  const proxy = await startNode(path.join(here, 'gateway/undici-proxy.mjs'), {
    PORT: String(proxyPort),
    TARGET: target,
    NODE_OPTIONS: PERF_ARGS.join(' '),
  });
  const port = await freePort();
  const { pid } = startPortico(work, port, PERF_ARGS);
  const keyed = PAIR === 'proxy-b';
  return [
    { name: 'plain undici proxy', pid: proxy.pid, url: `http://127.0.0.1:${proxyPort}/items`, headers: {} },
    {
      name: keyed ? 'portico (b)' : 'portico (a)',
      pid,
      url: `http://127.0.0.1:${port}/${keyed ? 'keyed' : 'keyless'}/items`,
      headers: keyed ? { 'x-api-key': KEY } : {},
      inclusive: ['packages/gateway/', 'packages/storage/'],
    },
  ];
}

main().catch((error) => {
  console.error(error);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
