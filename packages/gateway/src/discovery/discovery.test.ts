import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { startBackend, type Backend } from '../test-support/backends.js';
import { deployedApi, publishEvent } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';

type TestGateway = Awaited<ReturnType<typeof startTestGateway>>;

async function eventually(check: () => Promise<void> | void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A local server answering like Consul's health API for the service `orders`. */
function startConsul() {
  const state = { instances: [] as Backend[], failing: false, hits: 0 };
  const server = http.createServer((req, res) => {
    state.hits += 1;
    if (state.failing) return res.writeHead(500).end('consul is down');
    if (!req.url?.startsWith('/v1/health/service/orders?passing=true')) return res.writeHead(404).end();
    const entries = state.instances.map((b, i) => {
      const url = new URL(b.url);
      return {
        Node: { Address: url.hostname },
        Service: { ID: `orders-${url.port}-${i}`, Address: '', Port: Number(url.port) },
      };
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(entries));
  });
  return { state, server };
}

describe('service discovery in the gateway (Consul)', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let gateway: TestGateway;
  let a: Backend, b: Backend, c: Backend, fixed: Backend;
  const consul = startConsul();
  let consulUrl = '';

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    [a, b, c, fixed] = await Promise.all([
      startBackend({ name: 'a' }),
      startBackend({ name: 'b' }),
      startBackend({ name: 'c' }),
      startBackend({ name: 'fixed' }),
    ]);
    await new Promise<void>((resolve) => consul.server.listen(0, '127.0.0.1', resolve));
    consulUrl = `http://127.0.0.1:${(consul.server.address() as AddressInfo).port}`;
    // Consul runs on this machine: the outbound guard must allow it.
    gateway = await startTestGateway(t.storage, bus, {
      outbound: { allowPrivate: false, allowed: ['127.0.0.1'] },
    });
  });
  afterAll(async () => {
    await gateway.cleanup();
    await Promise.all([a, b, c, fixed].map((x) => x.close()));
    await new Promise<void>((resolve) => consul.server.close(() => resolve()));
    await t.destroy();
  });

  const discoveryApi = (contextPath: string, statics: string[]) =>
    deployedApi(contextPath, statics, {
      definition: {
        proxy: {
          context_path: contextPath,
          groups: [
            {
              name: 'default',
              endpoints: statics.map((target, i) => ({ name: `static${i}`, target })),
              services: {
                discovery: {
                  enabled: true,
                  provider: 'consul-service-discovery',
                  configuration: { url: consulUrl, service: 'orders', pollIntervalMs: 500 },
                },
              },
            },
          ],
        },
      },
    });

  /** Which backends answer over a few calls (round robin). */
  async function answering(path: string): Promise<string[]> {
    const names = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${gateway.url}${path}`);
      if (res.status === 200) names.add(((await res.json()) as { backend: string }).backend);
      else names.add(String(res.status));
    }
    return [...names].sort();
  }

  it('keeps the endpoints current: they appear, change, stay when Consul fails, disappear; undeploy stops polling', async () => {
    consul.state.instances = [a, b];
    const api = discoveryApi('/discovered', []);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => expect(await answering('/discovered')).toEqual(['a', 'b']));

    // b is replaced by c.
    consul.state.instances = [a, c];
    await eventually(async () => expect(await answering('/discovered')).toEqual(['a', 'c']));

    // Consul fails: the last endpoints are kept.
    consul.state.failing = true;
    const hitsWhenFailing = consul.state.hits;
    await eventually(() => expect(consul.state.hits).toBeGreaterThanOrEqual(hitsWhenFailing + 2));
    expect(await answering('/discovered')).toEqual(['a', 'c']);
    consul.state.failing = false;

    // No passing instance left: no endpoint.
    consul.state.instances = [];
    await eventually(async () => expect(await answering('/discovered')).toEqual(['502']));

    // Undeployed: the API is gone and Consul is no longer read.
    consul.state.instances = [a];
    await eventually(async () => expect(await answering('/discovered')).toEqual(['a']));
    await publishEvent(t.storage.db, bus, 'UNPUBLISH_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/discovered`)).status).toBe(404));
    await sleep(100); // a read under way when undeployed
    const hitsAfterUndeploy = consul.state.hits;
    await sleep(1500);
    expect(consul.state.hits).toBe(hitsAfterUndeploy);
  });

  it('keeps the static endpoints of the group next to the discovered ones', async () => {
    consul.state.instances = [b];
    const api = discoveryApi('/mixed', [fixed.url]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => expect(await answering('/mixed')).toEqual(['b', 'fixed']));
    consul.state.instances = [];
    await eventually(async () => expect(await answering('/mixed')).toEqual(['fixed']));
    await publishEvent(t.storage.db, bus, 'UNPUBLISH_API', api);
  });

  it('reads Consul only where the outbound policy of the gateway allows it (default: public addresses)', async () => {
    const own = await createTestDatabase('sqlite');
    const ownBus = new EventBus();
    const strict = await startTestGateway(own.storage, ownBus);
    try {
      consul.state.instances = [a];
      const before = consul.state.hits;
      await publishEvent(own.storage.db, ownBus, 'PUBLISH_API', discoveryApi('/guarded', []));
      await eventually(async () => expect((await fetch(`${strict.url}/guarded`)).status).toBe(502));
      await sleep(700);
      expect(consul.state.hits).toBe(before);
    } finally {
      await strict.cleanup();
      await own.destroy();
    }
  });
});
