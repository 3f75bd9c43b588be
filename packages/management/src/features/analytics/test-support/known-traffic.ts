import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { DeployedApi } from '@portico/model';
import { ApiDefinition } from '@portico/model';
import { DEFAULT_GATEWAY_OPTIONS, startGateway } from '@portico/gateway';
import type { ApplicationRow, Dialect, PlanRow } from '@portico/storage';
import { insertApiKey, insertEvent } from '@portico/storage';
import type { SignedInUser, TestApp } from '../../../test-support/index.js';
import {
  createApi,
  createApplication,
  createPlan,
  createSubscription,
  signInNewUser,
  startTestApp,
} from '../../../test-support/index.js';

/** A backend that answers `/status/NNN` with that status, after `?delay=` ms; 200 otherwise. */
async function startStatusBackend(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://backend');
    const status = Number(/\/status\/(\d{3})/.exec(url.pathname)?.[1] ?? 200);
    const delay = Number(url.searchParams.get('delay') ?? 0);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ path: url.pathname }));
      }, delay),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface KnownTraffic {
  t: TestApp;
  admin: SignedInUser;
  pets: { id: string; name: string };
  orders: { id: string; name: string };
  alpha: ApplicationRow;
  beta: ApplicationRow;
  gold: PlanRow;
  open: PlanRow;
  /** The X-Request-Id of each request sent, by what it was. */
  ids: {
    alphaGets: string[];
    betaPosts: string[];
    betaFailure: string;
    ordersColon: string[];
    ordersMissing: string;
  };
  /** A window holding every request. */
  from: number;
  to: number;
  close(): Promise<void>;
}

function deployed(
  id: string,
  name: string,
  contextPath: string,
  target: string,
  plans: PlanRow[],
  logging: 'NONE' | 'CLIENT_PROXY',
): DeployedApi {
  const definition = ApiDefinition.parse({
    id,
    name,
    version: '1.0',
    proxy: {
      context_path: contextPath,
      logging: { mode: logging },
      groups: [{ name: 'default', endpoints: [{ name: 'e0', target }] }],
    },
  });
  return {
    ...{ id, name, version: '1.0', description: null, visibility: 'PUBLIC', state: 'STARTED' },
    deployed_at: Date.now(),
    definition,
    plans: plans.map((p, i) => ({
      ...{ id: p.id, name: p.name, security: p.security as 'KEY_LESS', securityDefinition: null },
      ...{ status: 'PUBLISHED', order: i, paths: {}, tags: [] },
    })),
  };
}

/**
 * The management app and a real gateway on one database, and known traffic through the gateway:
 * API Pets (plan Gold, API key, logging client and proxy): Alpha GET 200 x4; Beta POST 201 x2; Beta GET 503 (120 ms) x1.
 * API Orders (plan Open, keyless, no logging): GET /orders-…/a:b 200 x2; GET 404 x1. Ten requests in all.
 */
export async function driveKnownTraffic(dialect: Dialect): Promise<KnownTraffic> {
  const t = await startTestApp(dialect);
  const backend = await startStatusBackend();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-analytics-'));
  const gateway = await startGateway(t.storage, t.ctx.bus, {
    ...DEFAULT_GATEWAY_OPTIONS,
    ...{ port: 0, host: '127.0.0.1', tags: [], dataDir, version: 'test' },
    log: { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) },
    reporter: { flushIntervalMs: 50 },
  });
  const gw = `http://127.0.0.1:${gateway.port}`;
  const suffix = randomUUID().slice(0, 6);
  const db = t.db;
  const pets = await createApi(db, { name: 'Pets', context_path: `/pets-${suffix}` });
  const orders = await createApi(db, { name: 'Orders', context_path: `/orders-${suffix}` });
  const gold = await createPlan(db, pets.id, { name: 'Gold', security: 'API_KEY' });
  const open = await createPlan(db, orders.id, { name: 'Open', security: 'KEY_LESS' });
  const alpha = await createApplication(db, { name: 'Alpha' });
  const beta = await createApplication(db, { name: 'Beta' });
  const now = Date.now();
  for (const [application, key] of [
    [alpha, `alpha-${suffix}`],
    [beta, `beta-${suffix}`],
  ] as const) {
    const subscription = await createSubscription(db, gold, application, {
      ...{ status: 'ACCEPTED', processed_at: now, starting_at: now - 1000 },
    });
    await insertApiKey(db, {
      ...{ key, subscription_id: subscription.id, application_id: application.id, plan_id: gold.id },
      ...{
        api_id: pets.id,
        revoked: 0,
        paused: 0,
        revoked_at: null,
        expire_at: null,
        created_at: now,
        updated_at: now,
      },
    });
  }
  for (const api of [
    deployed(pets.id, 'Pets', `/pets-${suffix}`, backend.url, [gold], 'CLIENT_PROXY'),
    deployed(orders.id, 'Orders', `/orders-${suffix}`, backend.url, [open], 'NONE'),
  ]) {
    await insertEvent(db, {
      ...{ id: randomUUID(), type: 'PUBLISH_API', payload: JSON.stringify(api) },
      ...{ properties: JSON.stringify({ api_id: api.id }), api_id: api.id, user_id: null },
      ...{ created_at: now, updated_at: now },
    });
  }
  await gateway.sync.sync();
  const served = gateway.sync.servedApis().map((a) => a.id);
  if (!served.includes(pets.id) || !served.includes(orders.id)) throw new Error('the APIs are not served');

  const from = Date.now() - 1000;
  const send = async (url: string, init: RequestInit, status: number) => {
    const res = await fetch(`${gw}${url}`, init);
    await res.arrayBuffer();
    if (res.status !== status) throw new Error(`${url}: ${res.status}, expected ${status}`);
    return res.headers.get('x-request-id')!;
  };
  const key = (k: string) => ({ headers: { 'x-api-key': `${k}-${suffix}` } });
  const ids: KnownTraffic['ids'] = {
    alphaGets: [],
    betaPosts: [],
    betaFailure: '',
    ordersColon: [],
    ordersMissing: '',
  };
  for (let i = 0; i < 4; i++) ids.alphaGets.push(await send(`/pets-${suffix}/items`, key('alpha'), 200));
  for (let i = 0; i < 2; i++) {
    ids.betaPosts.push(
      await send(`/pets-${suffix}/status/201`, { method: 'POST', body: 'x', ...key('beta') }, 201),
    );
  }
  ids.betaFailure = await send(`/pets-${suffix}/status/503?delay=120`, key('beta'), 503);
  for (let i = 0; i < 2; i++) ids.ordersColon.push(await send(`/orders-${suffix}/a:b`, {}, 200));
  ids.ordersMissing = await send(`/orders-${suffix}/status/404`, {}, 404);
  await gateway.reporter.flush();
  // The rows, as the management server's indexer writes them from the gateway's segments.
  await t.ctx.requests.catchUp();
  const to = Date.now() + 1000;

  const admin = await signInNewUser(t.app, db, { management: 'ADMIN' });
  return {
    ...{ t, admin, pets, orders, alpha, beta, gold, open, ids, from, to },
    async close() {
      await gateway.stop();
      // The bus holds the PostgreSQL LISTEN connection the gateway opened: released before the pool ends.
      await t.ctx.bus.close();
      await backend.close();
      rmSync(dataDir, { recursive: true, force: true });
      await t.close();
    },
  };
}
