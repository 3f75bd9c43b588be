import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployedApi } from '@portico/model';
import { EventBus, findLatestLifecycleEvents, openStorage, type Storage } from '@portico/storage';
import { createEmptyPostgresDatabase, testDialects } from '@portico/storage/testing';
import { deployedApi, publishEvent, subscribe } from '../../packages/gateway/src/test-support/deployments.js';
import { startBackend, type Backend } from '../../packages/gateway/src/test-support/backends.js';
import { freePort, startPortico, type PorticoProcess } from '../support/portico-process.js';

const APIS = 10;
const KEYS = 30;
const CHANGES = 200;

/**
 * Issue 21: two writers (each its own connection pool and NOTIFY, as two management processes) make
 * 200 changes in parallel (starts, stops, key revocations, subscription closes); within 1 s of the
 * last one, each of three gateway processes serves exactly what the database says.
 */
const dialects = await testDialects();
describe.skipIf(!dialects.includes('postgres'))(
  'sync consistency: concurrent writers, three gateways',
  () => {
    let database: { url: string; drop(): Promise<void> };
    const writers: { storage: Storage; bus: EventBus }[] = [];
    let backend: Backend;
    const gateways: PorticoProcess[] = [];
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-consistency-'));
    const apis: DeployedApi[] = [];
    let keyed: DeployedApi;
    const keys: { key: string; subscriptionId: string }[] = [];

    beforeAll(async () => {
      database = await createEmptyPostgresDatabase();
      for (let i = 0; i < 2; i++) {
        const storage = await openStorage({ databaseUrl: database.url, dataDir, poolSize: 8 });
        const bus = new EventBus();
        bus.publishToPostgres(storage.pgPool!);
        writers.push({ storage, bus });
      }
      backend = await startBackend();
      const db = writers[0]!.storage.db;
      for (let i = 0; i < APIS; i++) {
        apis.push(deployedApi(`/c${i}`, [backend.url]));
        await publishEvent(db, undefined, 'PUBLISH_API', apis[i]!);
      }
      keyed = deployedApi('/keyed', [backend.url], { plans: [{ security: 'API_KEY' }] });
      for (let i = 0; i < KEYS; i++) {
        const key = `consistency-key-${i}`;
        const { subscriptionId } = await subscribe(db, keyed, keyed.plans[0]!.id, { key });
        keys.push({ key, subscriptionId });
      }
      await publishEvent(db, undefined, 'PUBLISH_API', keyed);
      for (let i = 0; i < 3; i++) {
        const port = String(await freePort());
        const env = {
          DATABASE_URL: database.url,
          PORTICO_GATEWAY_PORT: port,
          PORTICO_DATA_DIR: path.join(dataDir, `gw${i}`),
        };
        gateways.push(await startPortico('gateway', env, 30_000, `http://127.0.0.1:${port}/c0`));
      }
    });
    afterAll(async () => {
      await Promise.all(gateways.map((g) => g.kill()));
      for (const w of writers) {
        await w.bus.close();
        await w.storage.close();
      }
      await backend?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** What the database says each path should answer: 200 or not. */
    async function expected(): Promise<Map<string, boolean>> {
      const db = writers[0]!.storage.db;
      const latest = new Map<string, { seq: number; started: boolean }>();
      for (const e of await findLatestLifecycleEvents(db)) {
        const started =
          e.type === 'START_API' ||
          (e.type === 'PUBLISH_API' && (JSON.parse(e.payload!) as DeployedApi).state === 'STARTED');
        const previous = latest.get(e.api_id!);
        if (!previous || e.seq > previous.seq) latest.set(e.api_id!, { seq: e.seq, started });
      }
      const result = new Map<string, boolean>();
      for (const api of apis) result.set(api.definition.proxy.context_path, latest.get(api.id)!.started);
      const rows = await db
        .selectFrom('api_keys')
        .innerJoin('subscriptions', 'subscriptions.id', 'api_keys.subscription_id')
        .select(['api_keys.key', 'api_keys.revoked', 'subscriptions.status'])
        .execute();
      for (const r of rows) result.set(`key:${r.key}`, r.revoked === 0 && r.status === 'ACCEPTED');
      return result;
    }

    async function served(g: PorticoProcess): Promise<Map<string, boolean>> {
      const result = new Map<string, boolean>();
      await Promise.all([
        ...apis.map(async (api) => {
          const res = await fetch(`${g.gatewayUrl}${api.definition.proxy.context_path}`);
          await res.arrayBuffer();
          result.set(api.definition.proxy.context_path, res.status === 200);
        }),
        ...keys.map(async ({ key }) => {
          const res = await fetch(`${g.gatewayUrl}/keyed`, { headers: { 'X-Api-Key': key } });
          await res.arrayBuffer();
          result.set(`key:${key}`, res.status === 200);
        }),
      ]);
      return result;
    }

    it('every gateway serves exactly what the database says within 1 s of the last of 200 parallel changes', async () => {
      const changes = Array.from({ length: CHANGES }, (_, i) => async () => {
        const { storage, bus } = writers[i % 2]!;
        const now = Date.now();
        if (i % 10 === 3 && keys[i % KEYS]) {
          await storage.db
            .updateTable('api_keys')
            .set({ revoked: 1, revoked_at: now, updated_at: now })
            .where('key', '=', keys[i % KEYS]!.key)
            .execute();
          bus.publish({ kind: 'apikey', id: keys[i % KEYS]!.key });
        } else if (i % 10 === 7) {
          await storage.db
            .updateTable('subscriptions')
            .set({ status: 'CLOSED', closed_at: now, updated_at: now } as never)
            .where('id', '=', keys[(i * 7) % KEYS]!.subscriptionId)
            .execute();
          bus.publish({ kind: 'subscription', id: keys[(i * 7) % KEYS]!.subscriptionId });
        } else {
          const api = apis[i % APIS]!;
          // Each change in its own transaction, some of them slow to commit: commits come out of order.
          await storage.db.transaction().execute(async (trx) => {
            await publishEvent(trx, undefined, (i * 13) % 3 === 0 ? 'START_API' : 'STOP_API', api);
            if (i % 4 === 0) await new Promise((r) => setTimeout(r, 5 + (i % 30)));
          });
          bus.publish({ kind: 'event', id: 'STOP_API', apiId: api.id });
        }
      });
      // 200 changes, 20 at a time in parallel.
      for (let i = 0; i < changes.length; i += 20)
        await Promise.all(changes.slice(i, i + 20).map((c) => c()));
      const last = Date.now();
      const want = await expected();

      const lagging = async () => {
        const diffs: string[] = [];
        for (const [n, g] of gateways.entries()) {
          const got = await served(g);
          for (const [k, v] of want)
            if (got.get(k) !== v) diffs.push(`gateway ${n} ${k}: ${got.get(k)} != ${v}`);
        }
        return diffs;
      };
      let diffs = await lagging();
      for (let round = 0; diffs.length > 0 && Date.now() - last < 3000 && round < 50; round++) {
        await new Promise((r) => setTimeout(r, 50));
        diffs = await lagging();
      }
      expect(diffs).toEqual([]);
      expect(Date.now() - last).toBeLessThan(1000);
    }, 60_000);
  },
);
