import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import type { Running } from './start.js';
import { startComponents } from './start.js';
import type { Slow } from '../../gateway/src/test-support/slow-connection.js';
import { slowConnection, timedGet, until } from '../../gateway/src/test-support/slow-connection.js';

/**
 * Slow clients against the real servers of `portico start`, configured with short timeouts: clients
 * that send their headers a byte at a time, or a body that never ends, are cut by the server, and a
 * normal client is served meanwhile.
 */

const HEADERS_MS = 600;
const REQUEST_MS = 1200;
const SLOW = 60; // slow connections per kind and server

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('slow clients (header, request and keep-alive timeouts)', () => {
  let running: Running;
  let dataDir: string;
  let managementPort: number;
  let gatewayPort: number;
  const opened: Slow[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-slow-'));
    managementPort = await freePort();
    gatewayPort = await freePort();
    const config = loadConfig(
      {
        PORTICO_DATA_DIR: dataDir,
        PORTICO_MANAGEMENT_HOST: '127.0.0.1',
        PORTICO_MANAGEMENT_PORT: String(managementPort),
        PORTICO_GATEWAY_HOST: '127.0.0.1',
        PORTICO_GATEWAY_PORT: String(gatewayPort),
        PORTICO_GATEWAY_STATUS_PORT: '0',
        PORTICO_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        PORTICO_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
        PORTICO_HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
        PORTICO_LOG_LEVEL: 'silent',
      },
      dataDir,
    );
    expect(config.httpTimeouts).toEqual({ headersMs: HEADERS_MS, requestMs: REQUEST_MS, keepAliveMs: 1000 });
    running = await startComponents(config, { management: true, gateway: true, web: false });
  }, 60_000);
  afterAll(async () => {
    for (const slow of opened) slow.stop();
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const server of ['management', 'gateway'] as const) {
    it(`${server}: closes connections that send headers or a body too slowly, and serves others meanwhile`, async () => {
      const port = server === 'management' ? managementPort : gatewayPort;
      const normalPath = server === 'management' ? '/management/health' : '/no-api-here';
      const normalStatus = server === 'management' ? 200 : 404;
      const headers = await Promise.all(
        Array.from({ length: SLOW }, () =>
          slowConnection(port, 'GET /management/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'abcdefgh'),
        ),
      );
      const bodies = await Promise.all(
        Array.from({ length: SLOW }, () =>
          slowConnection(
            port,
            'POST /management/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":"',
            'xxxxxxxx',
          ),
        ),
      );
      opened.push(...headers, ...bodies);

      // Served at once while the slow ones hang on.
      const normal = await timedGet(port, normalPath);
      expect(normal.status).toBe(normalStatus);
      expect(normal.ms).toBeLessThan(1000);

      await until(() => [...headers, ...bodies].every((s) => s.closedAfter !== undefined), 6000);
      const stillOpen = [...headers, ...bodies].filter((s) => s.closedAfter === undefined).length;
      expect(stillOpen).toBe(0);
      // Cut by the server's timeouts, not at once, and well before the client would have given up.
      for (const s of headers) expect(s.closedAfter!).toBeGreaterThanOrEqual(HEADERS_MS - 100);
      for (const s of bodies) expect(s.closedAfter!).toBeGreaterThanOrEqual(REQUEST_MS - 100);
      for (const s of [...headers, ...bodies]) expect(s.closedAfter!).toBeLessThan(5000);
      expect(headers.some((s) => s.received.startsWith('HTTP/1.1 408'))).toBe(true);

      // And still served afterwards.
      expect((await timedGet(port, normalPath)).status).toBe(normalStatus);
    });
  }
});
