// Gateway benchmark: requests per second and p50/p99 latency, in one run on one machine, for
//   a direct call to the backend, a plain undici proxy (the baseline), nginx (when installed),
//   fast-gateway 3.4.7 with a header check, and Portico's gateway with (a) a key-less plan and
//   (b) an API-key plan with rate limit and reporting; each as a ratio to the plain proxy.
// Target: (b) at least 0.85 of the plain proxy's throughput, p99 at most 1 ms above it, no dropped report.
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEY = 'bench-key-0123456789abcdef0123456789';

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

function load(url, headers = {}) {
  const args = [
    path.join(root, 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(DURATION),
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
    await startNode(path.join(here, 'gateway/backend.mjs'), { PORT: String(backendPort) });
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
    await startNode(path.join(here, 'gateway/undici-proxy.mjs'), { PORT: String(proxyPort), TARGET: target });
    const fastPort = await freePort();
    await startNode(path.join(here, 'gateway/fast-gateway.mjs'), {
      PORT: String(fastPort),
      TARGET: target,
      KEY,
    });
    const gatewayPort = await freePort();
    const portico = spawn(process.execPath, [path.join(root, 'packages/cli/dist/bin.js'), 'gateway'], {
      env: {
        ...process.env,
        PORTICO_DATA_DIR: work,
        PORTICO_GATEWAY_PORT: String(gatewayPort),
        PORTICO_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
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
    await waitFor(`http://127.0.0.1:${fastPort}/bench/`, { 'x-api-key': KEY });
    await waitFor(`http://127.0.0.1:${gatewayPort}/keyless/`);
    await waitFor(`http://127.0.0.1:${gatewayPort}/keyed/`, { 'x-api-key': KEY });
    if (nginx) await waitFor(`http://127.0.0.1:${nginxPort}/`);

    const runs = [
      ['direct to the backend', `${target}/items`],
      ['plain undici proxy (baseline)', `http://127.0.0.1:${proxyPort}/items`],
      ...(nginx ? [['nginx', `http://127.0.0.1:${nginxPort}/items`]] : []),
      ['fast-gateway 3.4.7 + header check', `http://127.0.0.1:${fastPort}/bench/items`, { 'x-api-key': KEY }],
      ['portico (a) key-less plan', `http://127.0.0.1:${gatewayPort}/keyless/items`],
      [
        'portico (b) API key + rate limit + reporting',
        `http://127.0.0.1:${gatewayPort}/keyed/items`,
        { 'x-api-key': KEY },
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
    for (const [name, url, headers] of runs) {
      load(url, headers); // warm-up run, not kept
      results.push({ name, ...load(url, headers) });
    }
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
      `\nGateway benchmark: ${CONNECTIONS} connections, ${DURATION} s per run, ${os.cpus().length} CPUs\n`,
    );
    console.log(
      'run'.padEnd(46) +
        'req/s'.padStart(10) +
        'ratio'.padStart(8) +
        'p50 ms'.padStart(9) +
        'p99 ms'.padStart(9) +
        'non-2xx'.padStart(9),
    );
    for (const r of results) {
      console.log(
        r.name.padEnd(46) +
          r.rps.toFixed(0).padStart(10) +
          (r.rps / base.rps).toFixed(2).padStart(8) +
          String(r.p50).padStart(9) +
          String(r.p99).padStart(9) +
          String(r.non2xx + r.errors).padStart(9),
      );
    }
    const b = results.at(-1);
    console.log(
      `\n(b) throughput ratio to the plain proxy: ${(b.rps / base.rps).toFixed(2)} (target >= 0.85)`,
    );
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
