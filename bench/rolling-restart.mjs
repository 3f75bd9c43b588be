// Rolling restart benchmark (issue 22): gateways on one PostgreSQL (and Redis) behind a round-robin
// balancer that honours each gateway's /ready, under a fixed-rate load (open loop: each call leaves at
// its planned time, latency counted from that time, so a stall is not hidden). Prints the calls served
// and failed and the p50/p99 latency for the same rate without a roll (the baseline) and during a roll
// that stops (SIGTERM, graceful drain) and restarts every gateway one after the other; then the time a
// deploy takes to be served by every gateway (target 1 s). Targets: 0 failed calls during the roll.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { children, freePort, startNode, startPortico, waitFor } from './lib/processes.mjs';
import { seedBenchApis } from './lib/seed.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const GATEWAYS = Number(process.env.BENCH_GATEWAYS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const BASELINE_S = Number(process.env.BENCH_DURATION ?? 10);
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DRAIN = { PORTICO_DRAIN_MIN_MS: '1000', PORTICO_DRAIN_MAX_MS: '15000' };
const KEY = 'bench-key-0123456789abcdef0123456789';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

/** The balancer: a gateway is in rotation while its /ready answers 200 (polled every 100 ms). */
function balancer(gateways) {
  let next = 0;
  let timer;
  const poll = async () => {
    await Promise.all(
      gateways.map(async (g) => {
        const status = await fetch(g.ready, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.status,
          () => 0,
        );
        g.inRotation = status === 200;
      }),
    );
    timer = setTimeout(() => void poll(), 100);
  };
  void poll();
  return {
    pick() {
      for (let i = 0; i < gateways.length; i++) {
        const g = gateways[next++ % gateways.length];
        if (g.inRotation) return g;
      }
      return undefined;
    },
    stop: () => clearTimeout(timer),
  };
}

/** Calls at RATE per second until stopped: latencies of the calls answered 200, and the failures. */
function fixedRate(pick, pathAndQuery) {
  const result = { ok: 0, latencies: [], failed: [] };
  const inFlight = new Set();
  const started = performance.now();
  let sent = 0;
  const fire = (planned) => {
    const g = pick();
    if (!g) {
      result.failed.push('no gateway in rotation');
      return;
    }
    const call = fetch(`${g.base}${pathAndQuery}`)
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        result.ok++;
        result.latencies.push(performance.now() - planned);
      })
      .catch((error) => result.failed.push(`${error.cause?.code ?? error.message} from ${g.base}`))
      .finally(() => inFlight.delete(call));
    inFlight.add(call);
  };
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) * RATE) / 1000);
    for (; sent < due; sent++) fire(started + (sent * 1000) / RATE);
  }, 5);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    return result;
  };
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'portico-bench-roll-'));
  const { createEmptyPostgresDatabase } = await import(path.join(root, 'packages/storage/dist/testing.js'));
  const { EventBus, openStorage } = await import(path.join(root, 'packages/storage/dist/index.js'));
  const database = await createEmptyPostgresDatabase();
  const storage = await openStorage({ databaseUrl: database.url, dataDir: work });
  const bus = new EventBus();
  bus.publishToPostgres(storage.pgPool);
  try {
    const backendPort = await freePort();
    await startNode(path.join(here, 'gateway/backend.mjs'), { PORT: String(backendPort) });
    const target = `http://127.0.0.1:${backendPort}`;
    await seedBenchApis(storage, target, KEY);

    const start = async (g) => {
      g.process = startPortico(work, g.port, [], {
        DATABASE_URL: database.url,
        REDIS_URL,
        PORTICO_DATA_DIR: path.join(work, `gw${g.index}`),
        PORTICO_GATEWAY_STATUS_PORT: String(g.statusPort),
        ...DRAIN,
      });
      await waitFor(g.ready);
    };
    const gateways = [];
    for (let index = 0; index < GATEWAYS; index++) {
      const [port, statusPort] = [await freePort(), await freePort()];
      const g = { index, port, statusPort, base: `http://127.0.0.1:${port}`, inRotation: false };
      g.ready = `http://127.0.0.1:${statusPort}/ready`;
      await start(g);
      gateways.push(g);
    }
    const lb = balancer(gateways);
    while (!gateways.every((g) => g.inRotation)) await sleep(50);

    const stopBaseline = fixedRate(() => lb.pick(), '/keyless/');
    await sleep(BASELINE_S * 1000);
    const baseline = await stopBaseline();

    const stopRolling = fixedRate(() => lb.pick(), '/keyless/');
    const rollStarted = performance.now();
    for (const g of gateways) {
      const exited = new Promise((resolve) => g.process.once('exit', resolve));
      g.process.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`gateway ${g.index} exited ${code}`);
      await start(g);
      while (!g.inRotation) await sleep(20);
    }
    const rollMs = performance.now() - rollStarted;
    const rolling = await stopRolling();
    lb.stop();

    // A deploy: the time until every gateway serves it (LISTEN/NOTIFY wakes their sync).
    const { randomUUID } = await import('node:crypto');
    const id = randomUUID();
    const now = Date.now();
    const definition = {
      id,
      name: 'late',
      version: '1',
      proxy: { context_path: '/late', groups: [{ name: 'default', endpoints: [{ name: 'b', target }] }] },
    };
    const payload = {
      ...{ id, name: 'late', version: '1', description: null, visibility: 'PUBLIC', state: 'STARTED' },
      ...{ deployed_at: now, definition },
      plans: [
        { id: randomUUID(), name: 'p', status: 'PUBLISHED', order: 0, security: 'KEY_LESS', paths: {} },
      ],
    };
    const deployed = performance.now();
    await storage.db
      .insertInto('events')
      .values({
        ...{ id: randomUUID(), type: 'PUBLISH_API', payload: JSON.stringify(payload), properties: '{}' },
        ...{ api_id: id, user_id: null, created_at: now, updated_at: now },
      })
      .execute();
    bus.publish({ kind: 'event', id: 'PUBLISH_API', apiId: id });
    const reached = await Promise.all(
      gateways.map(async (g) => {
        for (;;) {
          const status = await fetch(`${g.base}/late/`).then(
            (r) => r.arrayBuffer().then(() => r.status),
            () => 0,
          );
          if (status === 200) return performance.now() - deployed;
          await sleep(10);
        }
      }),
    );
    const deployMs = Math.max(...reached);

    const row = (label, r, seconds) =>
      console.log(
        `${label.padEnd(26)}${String(r.ok).padEnd(8)}${String(r.failed.length).padEnd(8)}` +
          `${percentile(r.latencies, 0.5).toFixed(1).padEnd(9)}${percentile(r.latencies, 0.99).toFixed(1).padEnd(9)}` +
          `${seconds.toFixed(1)}`,
      );
    console.log(
      `${GATEWAYS} gateways on PostgreSQL and Redis, ${RATE} calls/s through a balancer honouring /ready\n`,
    );
    console.log(
      `${'run'.padEnd(26)}${'served'.padEnd(8)}${'failed'.padEnd(8)}${'p50 ms'.padEnd(9)}${'p99 ms'.padEnd(9)}s`,
    );
    row('no roll (baseline)', baseline, BASELINE_S);
    row('rolling restart', rolling, rollMs / 1000);
    if (rolling.failed.length > 0) console.log('failures:', [...new Set(rolling.failed)].slice(0, 10));
    console.log(
      `\ndeploy served by all ${GATEWAYS} gateways after ${deployMs.toFixed(0)} ms (target 1000 ms)`,
    );
    const ok = rolling.failed.length === 0 && baseline.failed.length === 0 && deployMs < 1000;
    console.log(ok ? 'OK' : 'NOT MET');
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await bus.close();
    await storage.close();
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
