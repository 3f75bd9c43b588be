import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { deployedApi, publishEvent } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';

const status = async (port: number, path: string) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { code: res.status, body: (await res.json()) as { status: string } };
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The status listener: what Kubernetes probes and load balancers ask (issue 22, item 1). */
describe('gateway: /live and /ready', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let backend: http.Server;
  let backendUrl: string;

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    backend = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', deployedApi('/ready-api', [backendUrl]));
  });
  afterAll(async () => {
    await new Promise((r) => backend.close(r));
    await t?.destroy();
  });

  it('answers 503 on /ready until the deployed APIs are loaded, 200 after, and 503 once draining', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let loading!: () => void;
    const loadStarted = new Promise<void>((resolve) => (loading = resolve));
    const statusPort = await freePort();
    // The first load waits for the test: the status listener is up before it.
    const starting = startTestGateway(t.storage, bus, {
      statusPort,
      beforeFirstLoad: async () => {
        loading();
        await held;
      },
    });
    await loadStarted;
    expect(await status(statusPort, '/live')).toEqual({ code: 200, body: { status: 'UP' } });
    expect(await status(statusPort, '/ready')).toEqual({ code: 503, body: { status: 'STARTING' } });
    release();
    const gateway = await starting;
    const hurry = new AbortController();
    try {
      expect(gateway.statusPort).toBe(statusPort);
      expect(await status(statusPort, '/ready')).toEqual({ code: 200, body: { status: 'READY' } });
      expect((await fetch(`${gateway.url}/ready-api/`)).status).toBe(200);

      // Draining: /ready 503 at once, calls still served (asking the client to close), /live 200.
      // A second signal (the abort) ends the drain once the test has seen it.
      void gateway.drain({ minMs: 60_000, maxMs: 60_000 }, hurry.signal);
      expect(await status(statusPort, '/ready')).toEqual({ code: 503, body: { status: 'DRAINING' } });
      expect(await status(statusPort, '/live')).toEqual({ code: 200, body: { status: 'UP' } });
      const during = await fetch(`${gateway.url}/ready-api/`);
      expect(during.status).toBe(200);
      expect(during.headers.get('connection')).toBe('close');
      expect(await during.text()).toBe('ok');
    } finally {
      hurry.abort();
      await gateway.cleanup();
    }
  });
});
