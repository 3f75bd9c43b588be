import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { PorticoProcess } from '../support/portico-process.js';
import { startPorticoOn, type StartedPortico } from '../support/started-portico.js';

/**
 * The wave's core scenario, over HTTP only, against the real `portico start` process: a publisher
 * creates an API with an API-key plan limited to 3 calls a minute, publishes, deploys and starts it; a
 * developer's application subscribes and is accepted; its key opens the API through the gateway,
 * the limit holds, and a revoked key stops working within a second. Every call lands in `requests`.
 */

interface Backend {
  url: string;
  received: { url: string; key: string | undefined }[];
  close(): Promise<void>;
}

/** A real backend: answers what it received, and keeps it. */
async function startBackend(): Promise<Backend> {
  const received: Backend['received'] = [];
  const server = http.createServer((req, res) => {
    received.push({ url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ backend: 'weather', url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until the check answers true, or fails after the timeout. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: core flow through the real process`, () => {
    let started: StartedPortico;
    let portico: PorticoProcess;
    let backend: Backend;
    let storage: Storage;
    let token: string;

    beforeAll(async () => {
      backend = await startBackend();
      started = await startPorticoOn(dialect, 'portico-core-');
      ({ portico, storage, token } = started);
    }, 60_000);
    afterAll(async () => {
      await started?.close();
      await backend?.close();
    });

    /** A management call with the admin's bearer token; fails the test on an unexpected status. */
    const api = async <T = Record<string, unknown>>(
      method: string,
      url: string,
      body?: unknown,
      expected = [200, 201, 204],
    ): Promise<T> => {
      const res = await fetch(`${portico.managementUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      expect(expected, `${method} ${url} answered ${res.status}: ${text}`).toContain(res.status);
      return (text ? JSON.parse(text) : undefined) as T;
    };
    const gateway = (key?: string) =>
      fetch(`${portico.gatewayUrl}/core-flow/forecast?city=Paris`, {
        headers: key === undefined ? {} : { 'X-Api-Key': key },
      });

    it('subscribes, calls with the key, meets the rate limit, and loses access once the key is revoked', async () => {
      // The publisher's side: API, plan with a rate limit, published, deployed, started.
      const created = await api<{ id: string }>('POST', '/apis', {
        name: 'Weather',
        version: '1.0',
        description: 'Forecasts',
        context_path: '/core-flow',
        endpoint: backend.url,
      });
      const apiId = created.id;
      const plan = await api<{ id: string; status: string }>('POST', `/apis/${apiId}/plans`, {
        name: 'Limited',
        description: 'Three calls a minute',
        security: 'API_KEY',
        validation: 'MANUAL',
        paths: {
          '/': [
            {
              methods: [],
              enabled: true,
              'rate-limit': { rate: { limit: 3, periodTime: 1, periodTimeUnit: 'MINUTES' } },
            },
          ],
        },
      });
      expect(plan.status).toBe('STAGING');
      expect((await api<{ status: string }>('POST', `/apis/${apiId}/plans/${plan.id}/_publish`)).status).toBe(
        'PUBLISHED',
      );
      expect((await api<{ is_synchronized: boolean }>('GET', `/apis/${apiId}/state`)).is_synchronized).toBe(
        false,
      );
      await api('POST', `/apis/${apiId}/deploy`);
      await api('POST', `/apis/${apiId}?action=START`);
      expect((await api<{ is_synchronized: boolean }>('GET', `/apis/${apiId}/state`)).is_synchronized).toBe(
        true,
      );

      // The developer's side: an application, subscribed (through the application: the API's publisher
      // would accept at once), accepted.
      const application = await api<{ id: string }>('POST', '/applications', {
        name: 'Forecast app',
        description: 'Shows the weather',
      });
      const subscription = await api<{ id: string; status: string }>(
        'POST',
        `/applications/${application.id}/subscriptions?plan=${plan.id}`,
        { request: 'Please' },
      );
      expect(subscription.status).toBe('PENDING');
      const tasks = await api<{ data: { data: { id: string } }[] }>('GET', '/user/tasks');
      expect(tasks.data.map((task) => task.data.id)).toContain(subscription.id);
      const accepted = await api<{ status: string }>(
        'POST',
        `/apis/${apiId}/subscriptions/${subscription.id}/_process`,
        { accepted: true, reason: 'Welcome' },
      );
      expect(accepted.status).toBe('ACCEPTED');
      const keys = await api<{ key: string; revoked: boolean }[]>(
        'GET',
        `/apis/${apiId}/subscriptions/${subscription.id}/keys`,
      );
      expect(keys).toHaveLength(1);
      const key = keys[0]!.key;

      // Through the gateway: the key opens the API (a 401 costs nothing of the limit).
      let first: Response | undefined;
      await eventually(
        async () => {
          first = await gateway(key);
          return first.status !== 401 && first.status !== 404;
        },
        10_000,
        'the gateway serving the key',
      );
      expect(first!.status).toBe(200);
      expect(await first!.json()).toMatchObject({ backend: 'weather', url: '/forecast?city=Paris' });
      expect(backend.received.length).toBe(1);

      const anonymous = await gateway();
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ message: 'API Key is missing' });

      expect((await gateway(key)).status).toBe(200);
      expect((await gateway(key)).status).toBe(200);
      const limited = await gateway(key);
      expect(limited.status).toBe(429);
      expect(backend.received.length).toBe(3);

      // Revoked: refused within a second.
      await api('DELETE', `/apis/${apiId}/subscriptions/${subscription.id}/keys/${key}`);
      const took = await eventually(
        async () => (await gateway(key)).status === 401,
        1000,
        'the revoked key refused',
      );
      expect(took).toBeLessThan(1000);
      expect(backend.received.length).toBe(3);

      // Every call was reported.
      await eventually(
        async () => {
          const rows = await storage.db
            .selectFrom('requests')
            .select('status')
            .where('api_id', '=', apiId)
            .execute();
          const statuses = rows.map((r) => r.status);
          return (
            statuses.filter((s) => s === 200).length === 3 &&
            statuses.includes(429) &&
            statuses.filter((s) => s === 401).length >= 2
          );
        },
        10_000,
        'the requests reported',
      );
      const reported = await storage.db
        .selectFrom('requests')
        .selectAll()
        .where('api_id', '=', apiId)
        .where('status', '=', 200)
        .execute();
      expect(reported.every((r) => r.plan_id === plan.id && r.application_id === application.id)).toBe(true);
      expect(reported.every((r) => r.subscription_id === subscription.id)).toBe(true);
    });
  });
}
