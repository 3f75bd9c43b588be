import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '@portico/storage';
import { createEmptyPostgresDatabase, testDialects } from '@portico/storage/testing';
import { deployedApi, publishEvent } from '../../packages/gateway/src/test-support/deployments.js';
import { startBackend, type Backend } from '../../packages/gateway/src/test-support/backends.js';
import { freePort, startPortico, type PorticoProcess } from '../support/portico-process.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 30;

/**
 * Three gateway processes on one PostgreSQL and one Redis serve the same APIs, and a rate limit of N
 * holds exactly across them.
 */
const dialects = await testDialects();
describe.skipIf(!dialects.includes('postgres'))(
  'scale-out: three gateways, one PostgreSQL, one Redis',
  () => {
    let database: { url: string; drop(): Promise<void> };
    let storage: Storage;
    let backend: Backend;
    const gateways: PorticoProcess[] = [];
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-scale-'));

    beforeAll(async () => {
      database = await createEmptyPostgresDatabase();
      storage = await openStorage({ databaseUrl: database.url, dataDir });
      backend = await startBackend();
    });
    afterAll(async () => {
      await Promise.all(gateways.map((g) => g.kill()));
      await backend?.close();
      await storage?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('counts exactly the limit of 200s over all gateways', async () => {
      const ready = deployedApi('/ready', [backend.url]);
      const limited = deployedApi('/limited', [backend.url], {
        plans: [
          {
            security: 'KEY_LESS',
            paths: {
              '/': [
                { 'rate-limit': { rate: { limit: LIMIT, periodTime: 1440, periodTimeUnit: 'MINUTES' } } },
              ],
            },
          },
        ],
      });
      await publishEvent(storage.db, undefined, 'PUBLISH_API', ready);
      await publishEvent(storage.db, undefined, 'PUBLISH_API', limited);

      for (let i = 0; i < 3; i++) {
        const port = String(await freePort());
        const env = {
          DATABASE_URL: database.url,
          REDIS_URL,
          PORTICO_GATEWAY_PORT: port,
          PORTICO_DATA_DIR: path.join(dataDir, `gw${i}`),
        };
        gateways.push(await startPortico('gateway', env, 30_000, `http://127.0.0.1:${port}/ready`));
      }

      const statuses: number[] = [];
      const calls = Array.from({ length: LIMIT * 3 }, (_, i) => gateways[i % 3]!);
      // Several requests in flight at once on every gateway.
      for (let i = 0; i < calls.length; i += 9) {
        const batch = calls
          .slice(i, i + 9)
          .map(async (g) => (await fetch(`${g.gatewayUrl}/limited/x`)).status);
        statuses.push(...(await Promise.all(batch)));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT * 2);
      // Every gateway took part.
      for (const g of gateways) expect((await fetch(`${g.gatewayUrl}/limited/x`)).status).toBe(429);
    });

    it('gets a deployment to every gateway through LISTEN/NOTIFY, without waiting for the poll', async () => {
      const api = deployedApi('/notified', [backend.url]);
      // The event is written by another process's pool: the gateways hear its NOTIFY.
      const { EventBus } = await import('@portico/storage');
      const bus = new EventBus();
      bus.publishToPostgres(storage.pgPool!);
      const published = Date.now();
      await publishEvent(storage.db, bus, 'PUBLISH_API', api);
      for (const g of gateways) {
        for (;;) {
          if ((await fetch(`${g.gatewayUrl}/notified`)).status === 200) break;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      // Polling alone would take up to 5 s; NOTIFY makes it immediate.
      expect(Date.now() - published).toBeLessThan(4000);
      await bus.close();
    });
  },
);
