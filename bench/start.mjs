// Start-up benchmark: time from `portico start` to the first answered request (data already present)
// and idle memory (RSS) of the all-in-one process. Baseline in the same run: a bare Node HTTP server.
// Targets: 3 s or less to the first answer, 250 MB RSS or less when idle.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function timeToFirstAnswer(args, env, url) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) break;
    } catch {
      // not yet
    }
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { child, ms };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

const stop = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-start-'));
try {
  const baseEnv = { PORTICO_DATA_DIR: dataDir, PORTICO_LOG_LEVEL: 'warn' };
  // First start creates the database, the roles and the administrator: not measured.
  {
    const port = await freePort();
    const env = {
      ...baseEnv,
      PORTICO_MANAGEMENT_PORT: String(port),
      PORTICO_WEB_PORT: String(await freePort()),
    };
    const { child } = await timeToFirstAnswer(
      [CLI, 'start'],
      env,
      `http://127.0.0.1:${port}/management/health`,
    );
    await stop(child);
  }
  const portico = [];
  const baseline = [];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    const port = await freePort();
    const webPort = await freePort();
    const env = { ...baseEnv, PORTICO_MANAGEMENT_PORT: String(port), PORTICO_WEB_PORT: String(webPort) };
    const { child, ms } = await timeToFirstAnswer(
      [CLI, 'start'],
      env,
      `http://127.0.0.1:${port}/management/health`,
    );
    portico.push(ms);
    if (i === RUNS - 1) {
      await new Promise((r) => setTimeout(r, 3000)); // idle
      rss = rssMb(child.pid);
    }
    await stop(child);

    const bport = await freePort();
    const script = `require('node:http').createServer((q,s)=>s.end('ok')).listen(${bport},'127.0.0.1')`;
    const b = await timeToFirstAnswer(['-e', script], {}, `http://127.0.0.1:${bport}/`);
    baseline.push(b.ms);
    b.child.kill('SIGKILL');
  }
  const p = median(portico);
  const b = median(baseline);
  console.log(
    `portico start -> first answer: median ${p.toFixed(0)} ms over ${RUNS} runs (target <= 3000 ms)`,
  );
  console.log(`bare node http server -> first answer: median ${b.toFixed(0)} ms (baseline)`);
  console.log(`ratio portico / baseline: ${(p / b).toFixed(1)}x`);
  console.log(`idle RSS of portico start: ${rss.toFixed(0)} MB (target <= 250 MB)`);
  if (p > 3000 || rss > 250) process.exitCode = 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
