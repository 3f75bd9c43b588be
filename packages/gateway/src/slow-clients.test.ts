import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import type { Backend } from './test-support/backends.js';
import { startBackend } from './test-support/backends.js';
import { deployedApi, publishEvent } from './test-support/deployments.js';
import { startTestGateway } from './test-support/gateway.js';
import { eventually } from './test-support/policy-harness.js';
import type { Slow } from './test-support/slow-connection.js';
import { slowConnection, timedGet, until } from './test-support/slow-connection.js';

const timeouts = { headersMs: 500, requestMs: 1000, keepAliveMs: 800 };

describe('gateway: slow clients', () => {
  let t: TestDatabase;
  let backend: Backend;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let port: number;
  const opened: Slow[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    const bus = new EventBus();
    backend = await startBackend({ delayMs: 1500 });
    gateway = await startTestGateway(t.storage, bus, { timeouts });
    port = gateway.port;
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', deployedApi('/slow', [backend.url]));
    await eventually(async () => expect((await timedGet(port, '/slow/ready')).status).toBe(200), 5000);
  });
  afterAll(async () => {
    for (const s of opened) s.stop();
    await gateway.cleanup();
    await backend.close();
    await t.destroy();
  });

  it('closes connections whose headers or body come too slowly, and serves a normal client meanwhile', async () => {
    const headers = await Promise.all(
      Array.from({ length: 80 }, () =>
        slowConnection(port, 'GET /slow/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'abcdefgh'),
      ),
    );
    // Bodies that never end, streamed on to the backend as they come.
    const bodies = await Promise.all(
      Array.from({ length: 80 }, () =>
        slowConnection(
          port,
          'POST /slow/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n',
          'xxxxxxxx',
        ),
      ),
    );
    opened.push(...headers, ...bodies);

    const normal = await timedGet(port, '/slow/normal');
    expect(normal.status).toBe(200);

    await until(() => opened.every((s) => s.closedAfter !== undefined), 6000);
    expect(opened.filter((s) => s.closedAfter === undefined)).toHaveLength(0);
    for (const s of headers) expect(s.closedAfter!).toBeGreaterThanOrEqual(timeouts.headersMs - 100);
    for (const s of bodies) expect(s.closedAfter!).toBeGreaterThanOrEqual(timeouts.requestMs - 100);
    for (const s of opened) expect(s.closedAfter!).toBeLessThan(5000);
    expect(headers.every((s) => s.received.startsWith('HTTP/1.1 408'))).toBe(true);
    expect((await timedGet(port, '/slow/after')).status).toBe(200);
  });

  it('does not count a slow backend against the request timeout', async () => {
    // The backend answers after 1.5 s, beyond the 1 s request timeout: the request itself came in time.
    const res = await fetch(`${gateway.url}/slow/backend`, { method: 'POST', body: 'payload' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { body: string }).body).toBe('payload');
  });

  it('closes an idle kept-alive connection after the keep-alive timeout', async () => {
    const idle = await slowConnection(port, 'GET /slow/idle HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '');
    opened.push(idle);
    await until(() => idle.closedAfter !== undefined, 5000);
    expect(idle.received.startsWith('HTTP/1.1 200')).toBe(true);
    // The answer takes 1.5 s (the backend), then the connection idles for the keep-alive timeout.
    expect(idle.closedAfter!).toBeGreaterThanOrEqual(1500 + timeouts.keepAliveMs - 100);
    expect(idle.closedAfter!).toBeLessThan(4500);
  });
});
