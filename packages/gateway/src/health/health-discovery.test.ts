import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthCheckService } from '@portico/model';
import { EventBus } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { deployedApi, publishEvent } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import { DOWN, checkOf } from './health-checker.js';

/** A backend whose /health answers 200 or 503 as told, and its name elsewhere. */
async function switchable(name: string) {
  const state = { healthy: true, checks: 0 };
  const server = http.createServer((req, res) => {
    if (req.url?.endsWith('/health') || req.url?.endsWith('/own-health')) {
      state.checks += 1;
      res.writeHead(state.healthy ? 200 : 503, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ path: req.url }));
    }
    res.end(name);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    state,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function eventually(check: () => Promise<void> | void, timeoutMs = 6000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const check = (path: string, rate = 100): HealthCheckService => ({
  enabled: true,
  trigger: { rate, unit: 'MILLISECONDS' },
  steps: [
    {
      request: { method: 'GET', path, fromRoot: false, headers: [] },
      response: { assertions: ['#response.status == 200'] },
    },
  ],
});

describe('which check an endpoint runs', () => {
  const api = check('/health');
  const own = { ...check('/own-health'), inherit: false };
  it('runs the API check without a check of its own or when inheriting, its own otherwise', () => {
    expect(checkOf(undefined, api)).toBe(api);
    expect(checkOf({ enabled: true, inherit: true }, api)).toBe(api);
    expect(checkOf({ enabled: false, inherit: true }, api)).toBeUndefined();
    expect(checkOf(own, api)).toBe(own);
    expect(checkOf({ enabled: false, inherit: false }, api)).toEqual({ enabled: false, inherit: false });
    expect(checkOf({ enabled: true, inherit: true }, undefined)).toBeUndefined();
  });
});

describe('health checks of inheriting and discovered endpoints', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let a: Awaited<ReturnType<typeof switchable>>;
  let b: Awaited<ReturnType<typeof switchable>>;
  let consul: http.Server;
  let consulUrl = '';

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    a = await switchable('a');
    b = await switchable('b');
    // Answers like Consul's health API: the service `orders` has one passing instance, b.
    consul = http.createServer((req, res) => {
      if (!req.url?.startsWith('/v1/health/service/orders')) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify([
          { Node: { Address: '127.0.0.1' }, Service: { ID: 'orders-b', Address: '', Port: b.port } },
        ]),
      );
    });
    await new Promise<void>((r) => consul.listen(0, '127.0.0.1', () => r()));
    consulUrl = `http://127.0.0.1:${(consul.address() as AddressInfo).port}`;
    gateway = await startTestGateway(t.storage, bus, {
      outbound: { allowPrivate: false, allowed: ['127.0.0.1'] },
    });
  });
  afterAll(async () => {
    await gateway.cleanup();
    await a.close();
    await b.close();
    await new Promise<void>((r) => consul.close(() => r()));
    await t.destroy();
  });

  const rows = (apiId: string) =>
    t.storage.db.selectFrom('health_checks').selectAll().where('api_id', '=', apiId).execute();

  it('checks a discovered endpoint with the API check and takes it out when it fails', async () => {
    const api = deployedApi('/discovered-health', [a.url], {
      definition: {
        services: { 'health-check': check('/health') },
        proxy: {
          context_path: '/discovered-health',
          groups: [
            {
              name: 'default',
              endpoints: [{ name: 'static', target: a.url, healthcheck: { enabled: true, inherit: true } }],
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
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      const endpoints = new Set((await rows(api.id)).map((r) => r.endpoint));
      expect(endpoints).toEqual(new Set(['static', 'consul#orders-b']));
    });
    b.state.healthy = false;
    await eventually(async () => {
      const down = (await rows(api.id)).find((r) => r.endpoint === 'consul#orders-b' && r.state === DOWN);
      expect(down?.request).toContain(`${b.url}/health`);
    });
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add(await (await fetch(`${gateway.url}/discovered-health`)).text());
    expect([...seen]).toEqual(['a']);
    b.state.healthy = true;
    await publishEvent(t.storage.db, bus, 'UNPUBLISH_API', api);
  });

  it('runs the own check of an endpoint that does not inherit, and none for one turned off', async () => {
    const api = deployedApi('/own-health', [a.url, b.url], {
      definition: {
        services: { 'health-check': check('/health') },
        proxy: {
          context_path: '/own-health',
          groups: [
            {
              name: 'default',
              endpoints: [
                { name: 'own', target: a.url, healthcheck: { ...check('/own-health'), inherit: false } },
                { name: 'off', target: b.url, healthcheck: { enabled: false, inherit: true } },
              ],
            },
          ],
        },
      },
    });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => expect((await rows(api.id)).length).toBeGreaterThanOrEqual(3));
    const found = await rows(api.id);
    expect(new Set(found.map((r) => r.endpoint))).toEqual(new Set(['own']));
    expect(found[0]!.request).toContain(`${a.url}/own-health`);
    await publishEvent(t.storage.db, bus, 'UNPUBLISH_API', api);
  });
});
