import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeployedApi } from '@portico/model';
import type { Executor } from '@portico/storage';
import { EventBus, connect } from '@portico/storage';
import { createTestDatabase, testDialects, type TestDatabase } from '@portico/storage/testing';
import type { GatewayOptions } from '../gateway.js';
import { startBackend, type Backend } from '../test-support/backends.js';
import { deployedApi, publishEvent, subscribe } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import { eventually } from '../test-support/policy-harness.js';
import type { Snapshot } from './snapshot.js';

type TestGateway = Awaited<ReturnType<typeof startTestGateway>>;

/** Issue 21: every cause of a gateway missing a change, or of a snapshot that differs from what is served. */
for (const dialect of await testDialects()) {
  describe(`${dialect}: gateway sync never misses a change`, () => {
    let t: TestDatabase;
    let backend: Backend;
    const gateways: TestGateway[] = [];

    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      backend = await startBackend();
    });
    // Each gateway LISTENs on a connection of the shared pool (4 connections): its own bus releases it.
    afterEach(async () => {
      for (const g of gateways.splice(0)) await g.cleanup();
    });
    afterAll(async () => {
      await backend.close();
      await t.destroy();
    });

    async function gateway(overrides: Partial<GatewayOptions> = {}): Promise<TestGateway> {
      // No bus messages and a long poll: only what the fix provides can make these changes arrive.
      const bus = new EventBus();
      const started = await startTestGateway(t.storage, bus, { syncIntervalMs: 60_000, ...overrides });
      gateways.push({ ...started, cleanup: () => started.cleanup().then(() => bus.close()) });
      return started;
    }
    const status = async (gw: TestGateway, p: string, headers: Record<string, string> = {}) =>
      (await fetch(`${gw.url}${p}`, { headers })).status;
    const snapshotOf = (gw: TestGateway): Snapshot => {
      const file = readdirSync(gw.dataDir).find((f) => f.endsWith('-snapshot.json'))!;
      return JSON.parse(readFileSync(path.join(gw.dataDir, file), 'utf8')) as Snapshot;
    };
    const startedInSnapshot = (gw: TestGateway, api: DeployedApi) =>
      snapshotOf(gw).apis.some((a) => a.id === api.id && a.started && a.deployed);

    /** Runs `write` in a transaction kept open until the returned function is called. */
    async function openTransaction(write: (trx: Executor) => Promise<void>): Promise<() => Promise<void>> {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const done = t.storage.db.transaction().execute(async (trx) => {
        await write(trx);
        written();
        await held;
      });
      await wrote;
      return async () => {
        release();
        await done;
      };
    }

    it.runIf(dialect === 'postgres')(
      'applies an event with a smaller sequence committed after a larger one',
      async () => {
        const late = deployedApi('/late-start', [backend.url], { state: 'STOPPED' } as never);
        const other = deployedApi('/early-other', [backend.url]);
        await publishEvent(t.storage.db, undefined, 'PUBLISH_API', { ...late, state: 'STOPPED' });
        const gw = await gateway();
        expect(await status(gw, '/late-start')).toBe(404);

        // START_API takes its sequence first and commits last.
        const commit = await openTransaction((trx) => publishEvent(trx, undefined, 'START_API', late));
        await publishEvent(t.storage.db, undefined, 'PUBLISH_API', other);
        await gw.sync.sync();
        expect(await status(gw, '/early-other')).toBe(200);
        await commit();
        await gw.sync.sync();

        expect(await status(gw, '/late-start')).toBe(200);
        expect(startedInSnapshot(gw, late)).toBe(true);
      },
    );

    it.runIf(dialect === 'postgres')(
      'applies a change committed while the full load was reading',
      async () => {
        const during = deployedApi('/during-load', [backend.url]);
        const after = deployedApi('/after-load', [backend.url]);
        const commit = await openTransaction((trx) => publishEvent(trx, undefined, 'PUBLISH_API', during));
        await publishEvent(t.storage.db, undefined, 'PUBLISH_API', after);
        const gw = await gateway();
        expect(await status(gw, '/after-load')).toBe(200);
        await commit();
        await gw.sync.sync();

        expect(await status(gw, '/during-load')).toBe(200);
      },
    );

    it('applies events in any order: a late deployment does not undo a newer stop', async () => {
      const api = deployedApi('/order', [backend.url]);
      await publishEvent(t.storage.db, undefined, 'PUBLISH_API', api);
      const gw = await gateway();
      expect(await status(gw, '/order')).toBe(200);
      await publishEvent(t.storage.db, undefined, 'STOP_API', api);
      await gw.sync.sync();
      await gw.sync.sync();
      expect(await status(gw, '/order')).toBe(404);
      expect(startedInSnapshot(gw, api)).toBe(false);
    });

    it('keeps what is served and the snapshot equal when a query after the events fails', async () => {
      const api = deployedApi('/keys-fail', [backend.url], { plans: [{ security: 'API_KEY' }] });
      await subscribe(t.storage.db, api, api.plans[0]!.id, { key: 'keys-fail-key' });
      await publishEvent(t.storage.db, undefined, 'PUBLISH_API', { ...api, state: 'STOPPED' });
      const gw = await gateway();
      const withKey = { 'x-api-key': 'keys-fail-key' };
      expect(await status(gw, '/keys-fail', withKey)).toBe(404);

      await t.storage.db.schema.alterTable('api_keys').renameTo('api_keys_away').execute();
      try {
        await publishEvent(t.storage.db, undefined, 'START_API', api);
        await gw.sync.sync();
        // The keys could not be read: the start is not served yet, and the snapshot says the same.
        expect(gw.sync.lastError).toBeDefined();
        expect(await status(gw, '/keys-fail', withKey)).toBe(404);
        expect(startedInSnapshot(gw, api)).toBe(false);
      } finally {
        await t.storage.db.schema.alterTable('api_keys_away').renameTo('api_keys').execute();
      }
      await gw.sync.sync();
      expect(await status(gw, '/keys-fail', withKey)).toBe(200);
      expect(startedInSnapshot(gw, api)).toBe(true);
      expect(snapshotOf(gw).keys.map((k) => k.key)).toContain('keys-fail-key');
    });

    it('refuses a key revoked by a transaction that committed long after its updated_at', async () => {
      const api = deployedApi('/late-revoke', [backend.url], { plans: [{ security: 'API_KEY' }] });
      await subscribe(t.storage.db, api, api.plans[0]!.id, { key: 'late-revoke-key' });
      await publishEvent(t.storage.db, undefined, 'PUBLISH_API', api);
      const gw = await gateway({ reconcileIntervalMs: 200, syncIntervalMs: 100 });
      const withKey = { 'x-api-key': 'late-revoke-key' };
      expect(await status(gw, '/late-revoke', withKey)).toBe(200);

      // updated_at ten minutes back: as a writer whose clock lags, or whose commit waited that long.
      await t.storage.db
        .updateTable('api_keys')
        .set({ revoked: 1, revoked_at: Date.now(), updated_at: Date.now() - 600_000 })
        .where('key', '=', 'late-revoke-key')
        .execute();
      await eventually(async () => expect(await status(gw, '/late-revoke', withKey)).toBe(401), 3000);
      expect(snapshotOf(gw).keys.find((k) => k.key === 'late-revoke-key')?.revoked).toBe(true);
    });

    it('reports the sequence and digest it serves, equal on gateways in step', async () => {
      const api = deployedApi('/digest', [backend.url]);
      await publishEvent(t.storage.db, undefined, 'PUBLISH_API', api);
      const [a, b] = [await gateway(), await gateway()];
      await Promise.all([a.sync.sync(), b.sync.sync()]);
      expect(a.sync.digest).toMatch(/^[0-9a-f]{16}$/);
      expect(a.sync.digest).toBe(b.sync.digest);
      expect(a.sync.servedSeq).toBeGreaterThan(0);
      const before = a.sync.digest;
      await publishEvent(t.storage.db, undefined, 'STOP_API', api);
      await a.sync.sync();
      expect(a.sync.digest).not.toBe(before);
      expect(a.sync.digest).not.toBe(b.sync.digest);
      await b.sync.sync();
      expect(a.sync.digest).toBe(b.sync.digest);
    });

    it.runIf(dialect === 'sqlite')(
      'hears a commit of another process on the same SQLite file within a second',
      async () => {
        const gw = await gateway();
        const other = connect({ dataDir: t.dataDir });
        try {
          const api = deployedApi('/other-process', [backend.url]);
          await publishEvent(other.db, undefined, 'PUBLISH_API', api);
          const committed = Date.now();
          await eventually(async () => expect(await status(gw, '/other-process')).toBe(200), 2000);
          expect(Date.now() - committed).toBeLessThan(1000);
        } finally {
          await other.close();
        }
      },
    );
  });
}
