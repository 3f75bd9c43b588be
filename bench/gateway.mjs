// Gateway benchmark: requests per second and p50/p99 latency, in one run on one machine, for
//   a direct call to the backend, a plain undici proxy (the baseline), nginx (when installed),
//   fast-gateway 3.4.7 with a header check, and Portico's gateway with (a) a key-less plan and
//   (b) an API-key plan with rate limit and reporting; each as a ratio to the plain proxy.
// Target: (b) at least 0.85 of the plain proxy's throughput, p99 at most 1 ms above it, no dropped report.
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const children = [];
function startNode(script, env) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

async function waitFor(url, headers = {}) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never answered 200`);
}

// CPU time of a server's threads (Linux /proc, clock ticks of 10 ms): which thread pays for a request.
function threadTicks(pid) {
  const out = new Map();
  if (!pid || !existsSync(`/proc/${pid}/task`)) return out;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(tid, { name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the thread ended
    }
  }
  return out;
}

function cpuPerRequest(before, after, requests) {
  const byName = new Map();
  for (const [tid, t] of after) {
    const used = t.ticks - (before.get(tid)?.ticks ?? 0);
    const name = t.name.replace(/[0-9]+$/, '');
    byName.set(name, (byName.get(name) ?? 0) + used);
  }
  const us = (ticks) => Math.round((ticks * 10_000) / Math.max(requests, 1));
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  const parts = [...byName].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  return { total: us(total), parts: parts.map(([n, v]) => `${n} ${us(v)}`).join(', ') };
}

// nginx serves from its one worker process, a child of the master.
function nginxWorker(master) {
  try {
    return Number(readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(' ')[0]);
  } catch {
    return undefined;
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function load(url, headers = {}, duration = DURATION) {
  const args = [
    path.join(root, 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(duration),
  ];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  const out = execFileSync(process.execPath, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const r = JSON.parse(out);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

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
    const now = Date.now();
    const deploy = async (contextPath, plan) => {
      const id = randomUUID();
      const payload = {
        id,
        name: contextPath,
        version: '1',
        description: null,
        visibility: 'PUBLIC',
        state: 'STARTED',
        deployed_at: now,
        definition: {
          id,
          name: contextPath,
          version: '1',
          proxy: {
            context_path: contextPath,
            groups: [{ name: 'default', endpoints: [{ name: 'backend', target }] }],
          },
        },
        plans: [
          {
            id: randomUUID(),
            name: 'plan',
            status: 'PUBLISHED',
            order: 0,
            securityDefinition: null,
            tags: [],
            ...plan,
          },
        ],
      };
      await storage.db
        .insertInto('events')
        .values({
          id: randomUUID(),
          type: 'PUBLISH_API',
          payload: JSON.stringify(payload),
          properties: '{}',
          api_id: id,
          user_id: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return payload;
    };
    await deploy('/keyless', { security: 'KEY_LESS', paths: {} });
    const keyed = await deploy('/keyed', {
      security: 'API_KEY',
      paths: {
        '/': [{ 'rate-limit': { rate: { limit: 100000000, periodTime: 1, periodTimeUnit: 'SECONDS' } } }],
      },
    });
    const subscription = randomUUID();
    const application = randomUUID();
    await storage.db
      .insertInto('subscriptions')
      .values({
        id: subscription,
        api_id: keyed.id,
        plan_id: keyed.plans[0].id,
        application_id: application,
        status: 'ACCEPTED',
        request: null,
        reason: null,
        client_id: null,
        subscribed_by: null,
        processed_by: null,
        created_at: now,
        updated_at: now,
        processed_at: now,
        starting_at: now - 1000,
        ending_at: null,
        paused_at: null,
        closed_at: null,
      })
      .execute();
    await storage.db
      .insertInto('api_keys')
      .values({
        key: KEY,
        subscription_id: subscription,
        application_id: application,
        plan_id: keyed.plans[0].id,
        api_id: keyed.id,
        revoked: 0,
        paused: 0,
        revoked_at: null,
        expire_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const proxyPort = await freePort();
    const proxy = await startNode(path.join(here, 'gateway/undici-proxy.mjs'), {
      PORT: String(proxyPort),
      TARGET: target,
    });
    const headersPort = await freePort();
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
    const portico = spawn(
      process.execPath,
      [...GATEWAY_NODE_ARGS, path.join(root, 'packages/cli/dist/bin.js'), 'gateway'],
      {
        env: {
          ...process.env,
          PORTICO_DATA_DIR: work,
          PORTICO_GATEWAY_PORT: String(gatewayPort),
          PORTICO_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    children.push(portico);
    let nginx;
    const nginxPort = await freePort();
    if (existsSync('/usr/sbin/nginx')) {
      const conf = path.join(work, 'nginx.conf');
      writeFileSync(
        conf,
        `daemon off; worker_processes 1; pid ${work}/nginx.pid; error_log ${work}/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${work}; proxy_temp_path ${work}; fastcgi_temp_path ${work}; uwsgi_temp_path ${work}; scgi_temp_path ${work};
  upstream backend { server 127.0.0.1:${backendPort}; keepalive 64; }
  server { listen 127.0.0.1:${nginxPort}; location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; } } }`,
      );
      nginx = spawn('/usr/sbin/nginx', ['-c', conf, '-p', work], { stdio: 'ignore' });
      children.push(nginx);
    }

    await waitFor(`http://127.0.0.1:${proxyPort}/`);
    await waitFor(`http://127.0.0.1:${headersPort}/`);
    await waitFor(`http://127.0.0.1:${fastPort}/bench/`, { 'x-api-key': KEY });
    await waitFor(`http://127.0.0.1:${gatewayPort}/keyless/`);
    await waitFor(`http://127.0.0.1:${gatewayPort}/keyed/`, { 'x-api-key': KEY });
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
    ];
    const before = Number(
      (
        await storage.db
          .selectFrom('requests')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      ).n,
    );
    const selected = runs.filter(([n]) => !ONLY || ONLY.test(n) || n.startsWith('plain'));
    for (const [, url, headers] of selected) load(url, headers, Math.min(DURATION, 5)); // warm-up, not kept
    const rounds = selected.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      selected.forEach(([, url, headers, pid], i) => {
        const before = threadTicks(pid);
        const r = load(url, headers);
        rounds[i].push({ ...r, ticks: [before, threadTicks(pid)] });
      });
    }
    const baseIndex = selected.findIndex(([n]) => n.startsWith('plain'));
    selected.forEach(([name], i) => {
      const mine = rounds[i];
      const last = mine.at(-1);
      results.push({
        name,
        rps: median(mine.map((r) => r.rps)),
        ratio: median(mine.map((r, k) => r.rps / rounds[baseIndex][k].rps)),
        p50: median(mine.map((r) => r.p50)),
        p99: median(mine.map((r) => r.p99)),
        p99s: mine.map((r) => r.p99),
        rpss: mine.map((r) => Math.round(r.rps)),
        bad: mine.reduce((a, r) => a + r.non2xx + r.errors, 0),
        cpu: cpuPerRequest(last.ticks[0], last.ticks[1], last.total),
      });
    });
    // Every request of (b) and its warm-up must be reported: let the last batch land, then count.
    await new Promise((r) => setTimeout(r, 2500));
    const reported =
      Number(
        (
          await storage.db
            .selectFrom('requests')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        ).n,
      ) - before;
    const instance = await storage.db
      .selectFrom('instances')
      .select('dropped_reports')
      .where('state', '=', 'STARTED')
      .executeTakeFirst();
    await storage.close();

    const base = results.find((r) => r.name.startsWith('plain undici'));
    console.log(
      `\nGateway benchmark: ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved rounds, ${os.cpus().length} CPUs\n`,
    );
    console.log(
      'run'.padEnd(46) +
        'req/s'.padStart(10) +
        'ratio'.padStart(8) +
        'p50 ms'.padStart(9) +
        'p99 ms'.padStart(9) +
        'non-2xx'.padStart(9) +
        '  req/s by round',
    );
    for (const r of results) {
      console.log(
        r.name.padEnd(46) +
          r.rps.toFixed(0).padStart(10) +
          r.ratio.toFixed(2).padStart(8) +
          String(r.p50).padStart(9) +
          String(r.p99).padStart(9) +
          String(r.bad).padStart(9) +
          `  ${r.rpss.join(' ')}`,
      );
    }
    console.log('\nserver CPU per request, us (by thread):');
    for (const r of results)
      console.log(`  ${r.name.padEnd(44)}${String(r.cpu.total).padStart(5)}  (${r.cpu.parts})`);
    const b = results.at(-1);
    console.log(`\n(b) throughput ratio to the plain proxy: ${b.ratio.toFixed(2)} (target >= 0.85)`);
    console.log(`(b) p99 above the plain proxy: ${(b.p99 - base.p99).toFixed(1)} ms (target <= 1 ms)`);
    console.log(
      `reports written for portico runs: ${reported}; dropped reports: ${instance?.dropped_reports ?? 'unknown'} (target 0)`,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
