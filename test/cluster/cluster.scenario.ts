import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployedApi } from '@portico/model';
import { EventBus, openStorage, type Storage } from '@portico/storage';
import { createEmptyPostgresDatabase } from '@portico/storage/testing';
import { deployedApi, publishEvent } from '../../packages/gateway/src/test-support/deployments.js';
import { startBackend, type Backend } from '../../packages/gateway/src/test-support/backends.js';
import { freePort, login, startPortico, type PorticoProcess } from '../support/portico-process.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GATEWAYS = 10;
const LIMIT = 40;
const DRAIN = { PORTICO_DRAIN_MIN_MS: '1000', PORTICO_DRAIN_MAX_MS: '15000' };

interface Node {
  env: Record<string, string>;
  /** `/ready` of the node: the balancer sends traffic only while it answers 200. */
  ready: string;
  base: string;
  process: PorticoProcess;
  inRotation: boolean;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The test's own round-robin balancer, standing in for Kubernetes: it polls every node's `/ready`
 * and sends each call to the next node in rotation.
 */
class Balancer {
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly nodes: Node[]) {}

  start(): void {
    const poll = async () => {
      await Promise.all(
        this.nodes.map(async (n) => {
          // A node leaves the rotation when it says so (503) or refuses connections; a slow answer of a
          // loaded machine leaves it as it was, as a health check's failure threshold would.
          const answer = await fetch(n.ready, { signal: AbortSignal.timeout(2000) }).then(
            (r) => r.status,
            (e: unknown) =>
              String((e as { cause?: unknown }).cause).includes('ECONNREFUSED') ? 0 : undefined,
          );
          if (answer !== undefined) n.inRotation = answer === 200;
        }),
      );
      this.timer = setTimeout(() => void poll(), 100);
    };
    void poll();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  pick(): Node | undefined {
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.nodes[this.next++ % this.nodes.length]!;
      if (node.inRotation) return node;
    }
    return undefined;
  }
}

/** Steady load through a balancer until stopped: calls answered 200, and the others with their cause. */
function load(balancer: Balancer, pathAndQuery: string, headers: Record<string, string> = {}) {
  const result = { ok: 0, failed: [] as string[] };
  let running = true;
  const worker = async () => {
    while (running) {
      const node = balancer.pick();
      if (!node) {
        result.failed.push('no node in rotation');
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      try {
        const res = await fetch(`${node.base}${pathAndQuery}`, { headers });
        await res.arrayBuffer();
        if (res.status === 200) result.ok++;
        else result.failed.push(`${res.status} from ${node.base}`);
      } catch (error) {
        result.failed.push(`${String(error)} from ${node.base}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const workers = [worker(), worker(), worker()];
  return {
    result,
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return result;
    },
  };
}

/**
 * Issue 22, items 3 and 5: ten gateways and two management nodes on one PostgreSQL and Redis. A
 * shared rate limit accepts exactly its limit, a deploy reaches all ten, `instances/` lists ten, one
 * dashboard shows the traffic of all ten; then, with steady load through a balancer that honours
 * `/ready`, every gateway and then both management nodes restart one after the other with no failed
 * call and no lost report. The last step of `npm test`; alone: `npm run test:cluster`.
 */
describe('a cluster of ten gateways and two management nodes', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-cluster-'));
  let database: { url: string; drop(): Promise<void> };
  let storage: Storage;
  let bus: EventBus;
  let backend: Backend;
  let token: string;
  const managements: Node[] = [];
  const gateways: Node[] = [];
  const apis: Record<'steady' | 'limited', DeployedApi> = {} as never;

  async function start(command: 'management' | 'gateway', env: Record<string, string>, ready: string) {
    return startPortico(command, env, 120_000, ready);
  }

  beforeAll(async () => {
    database = await createEmptyPostgresDatabase();
    storage = await openStorage({ databaseUrl: database.url, dataDir });
    bus = new EventBus();
    bus.publishToPostgres(storage.pgPool!);
    backend = await startBackend();
    apis.steady = deployedApi('/steady', [backend.url]);
    apis.limited = deployedApi('/limited', [backend.url], {
      plans: [
        {
          security: 'KEY_LESS',
          paths: {
            '/': [{ 'rate-limit': { rate: { limit: LIMIT, periodTime: 1440, periodTimeUnit: 'MINUTES' } } }],
          },
        },
      ],
    });
    for (const api of Object.values(apis)) await publishEvent(storage.db, bus, 'PUBLISH_API', api);

    for (let i = 0; i < 2; i++) {
      const port = String(await freePort());
      const env = { DATABASE_URL: database.url, PORTICO_MANAGEMENT_PORT: port, ...DRAIN };
      const base = `http://127.0.0.1:${port}`;
      managements.push({
        env,
        ready: `${base}/ready`,
        base,
        inRotation: false,
        process: await start('management', env, `${base}/ready`),
      });
    }
    token = await login(`${managements[0]!.base}/management`, 'admin', 'admin');
    const ports = await Promise.all(Array.from({ length: GATEWAYS * 2 }, () => freePort()));
    // One after the other: ten processes loading at once on a small machine only start slower.
    for (let i = 0; i < GATEWAYS; i++) {
      await (async () => {
        const [port, statusPort] = [ports[2 * i]!, ports[2 * i + 1]!];
        const env = {
          DATABASE_URL: database.url,
          REDIS_URL,
          PORTICO_DATA_DIR: path.join(dataDir, `gw${i}`),
          PORTICO_GATEWAY_PORT: String(port),
          PORTICO_GATEWAY_STATUS_PORT: String(statusPort),
          PORTICO_LOG_LEVEL: process.env.PORTICO_CLUSTER_LOG_LEVEL ?? 'warn',
          ...DRAIN,
        };
        const ready = `http://127.0.0.1:${statusPort}/ready`;
        gateways[i] = {
          env,
          ready,
          base: `http://127.0.0.1:${port}`,
          inRotation: false,
          process: await start('gateway', env, ready),
        };
      })();
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...gateways, ...managements].map((n) => n?.process.kill('SIGKILL')));
    await backend?.close();
    await bus?.close();
    await storage?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const management = (url: string) =>
    fetch(`${managements[0]!.base}/management${url}`, { headers: { authorization: `Bearer ${token}` } });

  it('shares one rate limit, serves a deploy everywhere, lists ten instances and one dashboard of all ten', async () => {
    const statuses = await Promise.all(
      Array.from({ length: LIMIT + 20 }, (_, i) =>
        fetch(`${gateways[i % GATEWAYS]!.base}/limited/`).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);

    const late = deployedApi('/late', [backend.url]);
    const deployed = Date.now();
    await publishEvent(storage.db, bus, 'PUBLISH_API', late);
    const reached = await Promise.all(
      gateways.map((g) =>
        until('the deploy reaches every gateway', async () =>
          (await fetch(`${g.base}/late/`)).status === 200 ? Date.now() - deployed : undefined,
        ),
      ),
    );
    console.log(`deploy served by all ${GATEWAYS} gateways after ${Math.max(...reached)} ms`);

    const instances = (await (await management('/instances')).json()) as { content: { state: string }[] };
    expect(instances.content.filter((i) => i.state === 'started')).toHaveLength(GATEWAYS);

    const from = deployed - 3600_000;
    await until('the dashboard shows traffic of all ten', async () => {
      const res = await management(
        `/platform/analytics?type=group_by&field=gateway&from=${from}&to=${Date.now() + 60_000}`,
      );
      const { values } = (await res.json()) as { values: Record<string, number> };
      return Object.keys(values).length === GATEWAYS ? true : undefined;
    });
  });

  it('restarts every gateway, then both management nodes, under load with no failed call and no lost report', async () => {
    const gatewayBalancer = new Balancer(gateways);
    const managementBalancer = new Balancer(managements);
    gatewayBalancer.start();
    managementBalancer.start();
    await until('all in rotation', async () =>
      [...gateways, ...managements].every((n) => n.inRotation) ? true : undefined,
    );
    const traffic = load(gatewayBalancer, '/steady/');
    const api = load(managementBalancer, '/management/user', { authorization: `Bearer ${token}` });
    const rolled = Date.now();
    for (const nodes of [gateways, managements]) {
      for (const node of nodes) {
        expect(await node.process.kill('SIGTERM')).toBe(0);
        node.process = await startPortico(
          nodes === gateways ? 'gateway' : 'management',
          node.env,
          120_000,
          node.ready,
        );
        await until('back in rotation', async () => (node.inRotation ? true : undefined));
      }
    }
    const [served, managed] = [await traffic.stop(), await api.stop()];
    gatewayBalancer.stop();
    managementBalancer.stop();
    console.log(
      `rolling restart of ${GATEWAYS} gateways and 2 management nodes in ${Date.now() - rolled} ms: ` +
        `${served.ok} gateway calls and ${managed.ok} management calls served, ` +
        `${served.failed.length + managed.failed.length} failed`,
      [...new Set([...served.failed, ...managed.failed])].slice(0, 10),
    );
    expect(served.failed).toEqual([]);
    expect(managed.failed).toEqual([]);
    expect(served.ok).toBeGreaterThan(0);
    // Every call served has its report: those of stopped gateways were flushed as they left.
    const reported = await until('every report written', async () => {
      const row = await storage.db
        .selectFrom('requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('api_id', '=', apis.steady.id)
        .executeTakeFirstOrThrow();
      return Number(row.n) >= served.ok ? Number(row.n) : undefined;
    });
    expect(reported).toBe(served.ok);
  });
});
