import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRequestSegments, openStorage, type Storage } from '@portico/storage';
import { deployedApi, publishEvent } from '../../packages/gateway/src/test-support/deployments.js';
import { freePort, startPortico } from '../support/portico-process.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A gateway process leaving on SIGTERM (issue 22, item 2): /ready turns 503 at once, calls keep being
 * served with `Connection: close`, a streamed response in flight finishes whole, the reports of every
 * call are written, the instance is recorded as stopped, and the process exits 0. And a gateway refuses
 * a schema that a newer version migrated (item 6).
 */
describe('gateway process: drain and schema check', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-drain-'));
  let storage: Storage;
  let backend: http.Server;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const api = { slow: deployedApi('/slow', []), fast: deployedApi('/fast', []) };

  beforeAll(async () => {
    backend = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (!req.url?.startsWith('/slow')) return res.end('fast');
      // A streamed body whose end waits for the test: it is in flight while the gateway drains.
      res.write('first\n');
      void released.then(() => res.end('last\n'));
    });
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    api.slow = deployedApi('/slow', [`${url}/slow`]);
    api.fast = deployedApi('/fast', [url]);
    storage = await openStorage({ dataDir });
    await publishEvent(storage.db, undefined, 'PUBLISH_API', api.slow);
    await publishEvent(storage.db, undefined, 'PUBLISH_API', api.fast);
  });
  afterAll(async () => {
    release();
    await new Promise((r) => backend?.close(r));
    await storage?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes a streamed call in flight, flushes its reports, records the instance stopped and exits 0', async () => {
    const [port, statusPort] = [await freePort(), await freePort()];
    const status = `http://127.0.0.1:${statusPort}`;
    const gateway = await startPortico(
      'gateway',
      {
        PORTICO_DATA_DIR: dataDir,
        PORTICO_GATEWAY_PORT: String(port),
        PORTICO_GATEWAY_STATUS_PORT: String(statusPort),
        // Long enough for the test to see the drain from outside; the streamed call outlasts it.
        PORTICO_DRAIN_MIN_MS: '3000',
        PORTICO_DRAIN_MAX_MS: '60000',
      },
      30_000,
      `${status}/ready`,
    );
    expect((await fetch(`${status}/live`)).status).toBe(200);

    const slow = await fetch(`${gateway.gatewayUrl}/slow/`);
    expect(slow.status).toBe(200);
    const reader = slow.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first\n');

    const exited = new Promise<number | null>((resolve) =>
      gateway.child.once('exit', (code) => resolve(code)),
    );
    gateway.child.kill('SIGTERM');
    await until('/ready answers 503', async () =>
      (await fetch(`${status}/ready`)).status === 503 ? true : undefined,
    );
    // Still served while draining, and told to close its connection.
    const during = await fetch(`${gateway.gatewayUrl}/fast/`);
    expect(during.status).toBe(200);
    expect(during.headers.get('connection')).toBe('close');
    expect(await during.text()).toBe('fast');

    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('last\n');
    expect(await exited).toBe(0);

    // The gateway wrote its reports as segments before it left; the rows are the indexer's.
    await indexRequestSegments(storage.db);
    const reported = await storage.db
      .selectFrom('requests')
      .select(['api_id', 'status'])
      .where('api_id', 'in', [api.slow.id, api.fast.id])
      .execute();
    expect(reported.map((r) => `${r.api_id === api.slow.id ? 'slow' : 'fast'} ${r.status}`).sort()).toEqual([
      'fast 200',
      'slow 200',
    ]);
    const instances = await storage.db.selectFrom('instances').select('state').execute();
    expect(instances.map((i) => i.state)).toEqual(['STOPPED']);
  });

  it('refuses to start on a schema newer than it knows, saying so', async () => {
    await sql`insert into portico_migrations (name, timestamp) values (${'2999-01-01-0000-contract-future'}, ${new Date().toISOString()})`.execute(
      storage.db,
    );
    const error = await startPortico(
      'gateway',
      { PORTICO_DATA_DIR: dataDir, PORTICO_GATEWAY_STATUS_PORT: String(await freePort()) },
      30_000,
      'http://127.0.0.1:1/never',
    ).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('exited (1)');
    expect((error as Error).message).toContain(
      'The database schema is newer than this version of Portico understands: it has migration 2999-01-01-0000-contract-future',
    );
  });
});
