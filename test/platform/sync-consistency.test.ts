import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Storage } from '@portico/storage';
import { createEmptyPostgresDatabase, testDialects } from '@portico/storage/testing';
import { startBackend, type Backend } from '../../packages/gateway/src/test-support/backends.js';
import { freePort, login, startPortico, type PorticoProcess } from '../support/portico-process.js';

const APIS = 8;
const KEYS = 16;
const CHANGES = 200;
const IN_FLIGHT = 20;

/**
 * Issue 21: two `portico management` processes take 200 changes in parallel (deploys, starts, stops,
 * key revocations, subscription closes); within 1 s of the last one, each of three `portico gateway`
 * processes serves exactly what the database says. On PostgreSQL, and on SQLite with every process
 * on one database file.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: sync consistency, two management processes, three gateways`, () => {
    let database: { url: string; drop(): Promise<void> } | undefined;
    const managements: { process: PorticoProcess; token: string }[] = [];
    const gateways: PorticoProcess[] = [];
    let backend: Backend;
    let storage: Storage;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-consistency-'));
    const apis: { id: string; contextPath: string }[] = [];
    let keyedApi: string;
    const keys: { key: string; subscriptionId: string }[] = [];

    /** A management call; `ok` lists the refusals that a change racing another may meet. */
    async function call<T = Record<string, unknown>>(
      n: number,
      method: string,
      url: string,
      body?: unknown,
      ok: number[] = [],
    ): Promise<T> {
      const { process, token } = managements[n % managements.length]!;
      const res = await fetch(`${process.managementUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300 && !ok.includes(res.status))
        throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    }

    async function createApi(contextPath: string, security: 'KEY_LESS' | 'API_KEY') {
      const { id } = await call<{ id: string }>(0, 'POST', '/apis', {
        name: `API ${contextPath}`,
        version: '1.0',
        description: 'Consistency',
        context_path: contextPath,
        endpoint: backend.url,
      });
      const plan = await call<{ id: string }>(0, 'POST', `/apis/${id}/plans`, {
        name: security,
        description: 'Plan',
        security,
      });
      await call(0, 'POST', `/apis/${id}/plans/${plan.id}/_publish`);
      await call(0, 'POST', `/apis/${id}/deploy`);
      await call(0, 'POST', `/apis/${id}?action=START`);
      return { id, planId: plan.id };
    }

    beforeAll(async () => {
      database = dialect === 'postgres' ? await createEmptyPostgresDatabase() : undefined;
      const shared = { PORTICO_DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
      backend = await startBackend();
      // One after the other: the first migrates the database.
      for (let i = 0; i < 2; i++) {
        const process = await startPortico('management', shared);
        managements.push({ process, token: await login(process.managementUrl, 'admin', 'admin') });
      }
      storage = connect({ dataDir, ...(database ? { databaseUrl: database.url, poolSize: 2 } : {}) });
      for (let i = 0; i < APIS; i++)
        apis.push({ id: (await createApi(`/c${i}`, 'KEY_LESS')).id, contextPath: `/c${i}` });
      const keyed = await createApi('/keyed', 'API_KEY');
      keyedApi = keyed.id;
      for (let i = 0; i < KEYS; i++) {
        const app = await call<{ id: string }>(i, 'POST', '/applications', {
          name: `App ${i}`,
          description: 'Calls the keyed API',
        });
        const subscription = await call<{ id: string }>(
          i,
          'POST',
          `/apis/${keyedApi}/subscriptions?plan=${keyed.planId}&application=${app.id}`,
          {},
        );
        const [key] = await call<{ key: string }[]>(
          i,
          'GET',
          `/apis/${keyedApi}/subscriptions/${subscription.id}/keys`,
        );
        keys.push({ key: key!.key, subscriptionId: subscription.id });
      }
      for (let i = 0; i < 3; i++) {
        const port = String(await freePort());
        gateways.push(
          await startPortico(
            'gateway',
            { ...shared, PORTICO_GATEWAY_PORT: port },
            30_000,
            `http://127.0.0.1:${port}/c0`,
          ),
        );
      }
    }, 90_000);
    afterAll(async () => {
      await Promise.all([...gateways, ...managements.map((m) => m.process)].map((p) => p.kill()));
      await storage?.close();
      await backend?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** What the database says each path and key should get: 200 or not. */
    async function expected(): Promise<Map<string, boolean>> {
      const result = new Map<string, boolean>();
      const rows = await storage.db.selectFrom('apis').select(['id', 'state', 'deployed_at']).execute();
      for (const api of apis) {
        const row = rows.find((r) => r.id === api.id)!;
        result.set(api.contextPath, row.state === 'STARTED' && row.deployed_at !== null);
      }
      const keyRows = await storage.db
        .selectFrom('api_keys')
        .innerJoin('subscriptions', 'subscriptions.id', 'api_keys.subscription_id')
        .select(['api_keys.key', 'api_keys.revoked', 'subscriptions.status'])
        .where('api_keys.api_id', '=', keyedApi)
        .execute();
      for (const r of keyRows) result.set(`key:${r.key}`, !r.revoked && r.status === 'ACCEPTED');
      return result;
    }

    async function served(g: PorticoProcess): Promise<Map<string, boolean>> {
      const result = new Map<string, boolean>();
      await Promise.all([
        ...apis.map(async ({ contextPath }) => {
          const res = await fetch(`${g.gatewayUrl}${contextPath}`);
          await res.arrayBuffer();
          result.set(contextPath, res.status === 200);
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
        const api = apis[i % APIS]!.id;
        if (i % 10 === 3) {
          const { key, subscriptionId } = keys[i % KEYS]!;
          // Already revoked, or its subscription closed: refused.
          await call(
            i,
            'DELETE',
            `/apis/${keyedApi}/subscriptions/${subscriptionId}/keys/${key}`,
            undefined,
            [400],
          );
        } else if (i % 10 === 7) {
          const { subscriptionId } = keys[(i * 7) % KEYS]!;
          await call(
            i,
            'POST',
            `/apis/${keyedApi}/subscriptions/${subscriptionId}/status?status=CLOSED`,
            undefined,
            [400],
          );
        } else if (i % 10 === 1 || i % 10 === 5) {
          await call(i, 'POST', `/apis/${api}/deploy`);
        } else {
          // Already in that state: refused.
          await call(
            i,
            'POST',
            `/apis/${api}?action=${(i * 13) % 3 === 0 ? 'START' : 'STOP'}`,
            undefined,
            [400],
          );
        }
      });
      for (let i = 0; i < changes.length; i += IN_FLIGHT)
        await Promise.all(changes.slice(i, i + IN_FLIGHT).map((c) => c()));
      const last = Date.now();
      const want = await expected();
      // The changes did change something: some APIs stopped, some keys refused.
      expect([...want.values()].filter((v) => !v).length).toBeGreaterThan(3);

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
      while (diffs.length > 0 && Date.now() - last < 3000) {
        await new Promise((r) => setTimeout(r, 50));
        diffs = await lagging();
      }
      expect(diffs).toEqual([]);
      expect(Date.now() - last).toBeLessThan(1000);
    }, 60_000);
  });
}
