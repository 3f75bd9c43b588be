import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openStorage } from '@portico/storage';
import { createEmptyPostgresDatabase, testDialects } from '@portico/storage/testing';
import { deployedApi, publishEvent, subscribe } from '../../packages/gateway/src/test-support/deployments.js';
import { startBackend } from '../../packages/gateway/src/test-support/backends.js';
import { freePort, startPortico } from '../support/portico-process.js';

/** A gateway restarted while its database is down serves its last snapshot: APIs and keys. */
const dialects = await testDialects();
describe.skipIf(!dialects.includes('postgres'))('gateway snapshot', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('restarts and serves from the snapshot while the database is unreachable', async () => {
    const database = await createEmptyPostgresDatabase();
    cleanups.push(() => database.drop());
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-snap-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const storage = await openStorage({ databaseUrl: database.url, dataDir });
    cleanups.push(() => storage.close());
    const backend = await startBackend();
    cleanups.push(() => backend.close());

    const open = deployedApi('/open', [backend.url]);
    const keyed = deployedApi('/keyed', [backend.url], { plans: [{ security: 'API_KEY' }] });
    await subscribe(storage.db, keyed, keyed.plans[0]!.id, { key: 'snapshot-key-123' });
    await publishEvent(storage.db, undefined, 'PUBLISH_API', open);
    await publishEvent(storage.db, undefined, 'PUBLISH_API', keyed);

    const port = String(await freePort());
    const env = { PORTICO_GATEWAY_PORT: port, PORTICO_DATA_DIR: dataDir };
    const first = await startPortico(
      'gateway',
      { ...env, DATABASE_URL: database.url },
      30_000,
      `http://127.0.0.1:${port}/open`,
    );
    expect(
      (await fetch(`${first.gatewayUrl}/keyed`, { headers: { 'X-Api-Key': 'snapshot-key-123' } })).status,
    ).toBe(200);
    expect(await first.kill('SIGTERM')).toBe(0);
    expect(readdirSync(dataDir).some((f) => f.endsWith('-snapshot.json'))).toBe(true);

    // Nothing listens on this port: the database is "down" for the restarted gateway.
    const down = `postgres://postgres@127.0.0.1:${await freePort()}/portico`;
    const second = await startPortico(
      'gateway',
      { ...env, DATABASE_URL: down },
      30_000,
      `http://127.0.0.1:${port}/open`,
    );
    cleanups.push(async () => void (await second.kill()));
    expect((await fetch(`${second.gatewayUrl}/open/x`)).status).toBe(200);
    expect(
      (await fetch(`${second.gatewayUrl}/keyed`, { headers: { 'X-Api-Key': 'snapshot-key-123' } })).status,
    ).toBe(200);
    expect((await fetch(`${second.gatewayUrl}/keyed`, { headers: { 'X-Api-Key': 'wrong' } })).status).toBe(
      401,
    );
    expect(second.output()).toContain('starting from the snapshot');
    expect(existsSync(dataDir)).toBe(true);
  });

  it('loads from a database that a newer version migrated (rolling upgrade) instead of starting from the snapshot', async () => {
    const database = await createEmptyPostgresDatabase();
    cleanups.push(() => database.drop());
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-snap-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const storage = await openStorage({ databaseUrl: database.url, dataDir });
    cleanups.push(() => storage.close());
    const backend = await startBackend();
    cleanups.push(() => backend.close());
    await publishEvent(storage.db, undefined, 'PUBLISH_API', deployedApi('/newer', [backend.url]));
    // A migration this version does not know: its migrator refuses the database.
    await sql`insert into portico_migrations (name, timestamp) values ('2999-01-01-0000-from-the-future', ${new Date().toISOString()})`.execute(
      storage.db,
    );

    const port = String(await freePort());
    const gateway = await startPortico(
      'gateway',
      { PORTICO_GATEWAY_PORT: port, PORTICO_DATA_DIR: dataDir, DATABASE_URL: database.url },
      30_000,
      `http://127.0.0.1:${port}/newer`,
    );
    cleanups.push(async () => void (await gateway.kill()));
    expect((await fetch(`${gateway.gatewayUrl}/newer/x`)).status).toBe(200);
    expect(gateway.output()).toContain('database schema not migrated');
    expect(gateway.output()).not.toContain('starting from the snapshot');
  });
});
