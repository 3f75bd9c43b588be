import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, indexRequestSegments } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { deployedApi, publishEvent } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import { eventually } from '../test-support/policy-harness.js';

const SIZE = 8 * 1024 * 1024;

/**
 * Response bodies go from the backend straight into the client's response: large ones arrive whole
 * (the backend waits while a slow client reads), and a client that leaves ends the backend call.
 */
describe('gateway: response streaming', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let backend: http.Server;
  let backendUrl: string;
  const aborted: string[] = [];
  const body = Buffer.alloc(SIZE, 'abcdefghijklmnopqrstuvwxyz');

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    backend = http.createServer((req, res) => {
      if (req.url === '/endless') {
        // Writes until its client (the gateway) goes away.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('tick\n'), 5);
        res.on('close', () => {
          clearInterval(timer);
          if (!res.writableFinished) aborted.push(req.url!);
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(body);
    });
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    gateway = await startTestGateway(t.storage, bus);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', deployedApi('/big', [backendUrl]));
    await eventually(async () => {
      const res = await fetch(`${gateway.url}/big/`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    });
  });
  afterAll(async () => {
    await gateway.cleanup();
    backend.closeAllConnections();
    backend.close();
    await t.destroy();
  });

  it('streams a large body whole to a slow client, and reports its length', async () => {
    const received = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`${gateway.url}/big/file`, (res) => {
          const chunks: Buffer[] = [];
          // A slow reader: the gateway must hold the backend back, not buffer everything or drop bytes.
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            res.pause();
            setTimeout(() => res.resume(), 1);
          });
          res.on('end', () => resolve(Buffer.concat(chunks)));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    expect(received.length).toBe(SIZE);
    expect(received.equals(body)).toBe(true);
    await gateway.reporter.flush();
    await indexRequestSegments(t.storage.db);
    const row = await t.storage.db
      .selectFrom('requests')
      .selectAll()
      .where('path', '=', '/big/file')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 200, response_content_length: SIZE });
  });

  it('ends the backend call when the client goes away, and keeps serving', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${gateway.url}/big/endless`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    });
    await eventually(() => expect(aborted).toContain('/endless'));
    const res = await fetch(`${gateway.url}/big/again`);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(SIZE);
  });
});
