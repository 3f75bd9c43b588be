import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { PorticoProcess } from '../support/portico-process.js';
import { startPorticoOn, type StartedPortico } from '../support/started-portico.js';

/**
 * Writes under contention, against the real `portico start` process: for a while, subscriptions
 * (application created, subscribed, accepted), API updates (saved with If-Match, then deployed) and
 * gateway traffic through an API that logs every call (the report writer writes rows and logs) run
 * at once. No call answers a 5xx, and every write answered with success is stored.
 */

const LOAD_MS = 12_000;

/** A backend that answers every call with a small JSON body. */
async function startBackend(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url }));
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

async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Statuses answered, by kind of call: `subscribe 201`, `gateway 200`, ... */
class Tally {
  readonly counts = new Map<string, number>();
  readonly failures: string[] = [];

  note(kind: string, status: number, body = ''): void {
    const key = `${kind} ${status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (status >= 500 && this.failures.length < 10) this.failures.push(`${key}: ${body.slice(0, 300)}`);
  }

  serverErrors(): string[] {
    return [...this.counts].filter(([key]) => / 5\d\d$/.test(key)).map(([key, n]) => `${key} x${n}`);
  }
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: writes under contention`, () => {
    let started: StartedPortico;
    let portico: PorticoProcess;
    let backend: Awaited<ReturnType<typeof startBackend>>;
    let storage: Storage;
    let token: string;

    beforeAll(async () => {
      backend = await startBackend();
      started = await startPorticoOn(dialect, 'portico-contention-');
      ({ portico, storage, token } = started);
    }, 60_000);
    afterAll(async () => {
      await started?.close();
      await backend?.close();
    });

    /** A management call as the admin: its status, entity tag and body. */
    const call = async (
      method: string,
      url: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(`${portico.managementUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, etag: res.headers.get('etag'), text };
    };
    /** A setup call that must succeed. */
    const must = async <T = { id: string }>(method: string, url: string, body?: unknown): Promise<T> => {
      const res = await call(method, url, body);
      expect(res.status, `${method} ${url} answered ${res.status}: ${res.text}`).toBeLessThan(300);
      return (res.text ? JSON.parse(res.text) : undefined) as T;
    };

    /** An API with a published plan. */
    const apiWithPlan = async (name: string, security: string, validation: string) => {
      const created = await must('POST', '/apis', {
        name,
        version: '1',
        description: name,
        context_path: `/${name}`,
        endpoint: backend.url,
      });
      const plan = await must('POST', `/apis/${created.id}/plans`, {
        name: 'Plan',
        description: 'Open',
        security,
        validation,
        paths: { '/': [] },
      });
      await must('POST', `/apis/${created.id}/plans/${plan.id}/_publish`);
      return { apiId: created.id, planId: plan.id };
    };

    it(
      'answers subscriptions, API updates and gateway traffic at once without a 5xx, and stores every answered write',
      async () => {
        // Gateway traffic: a keyless API that logs client and proxy sides of every call.
        const traffic = await apiWithPlan('contention-traffic', 'KEY_LESS', 'AUTO');
        const current = await must<{ proxy: Record<string, unknown> }>('GET', `/apis/${traffic.apiId}`);
        await must('PUT', `/apis/${traffic.apiId}`, {
          proxy: { ...current.proxy, logging: { mode: 'CLIENT_PROXY' } },
        });
        await must('POST', `/apis/${traffic.apiId}/deploy`);
        await must('POST', `/apis/${traffic.apiId}?action=START`);
        // Subscriptions: an API-key plan whose subscriptions the publisher accepts.
        const subscribed = await apiWithPlan('contention-subscribed', 'API_KEY', 'MANUAL');
        // API updates: one API per updater, so the last answered save is the stored one.
        const updated = [await apiWithPlan('contention-updated-a', 'KEY_LESS', 'AUTO')];
        updated.push(await apiWithPlan('contention-updated-b', 'KEY_LESS', 'AUTO'));

        const gatewayUrl = `${portico.gatewayUrl}/contention-traffic/load?q=1`;
        await eventually(
          async () => (await fetch(`${portico.gatewayUrl}/contention-traffic/ready`)).status === 200,
          15_000,
          'the traffic API served',
        );

        const tally = new Tally();
        const accepted: string[] = [];
        const lastDescription = new Map<string, string>();
        const deploys = new Map<string, number>();
        let gatewayAnswers = 0;
        const until = Date.now() + LOAD_MS;

        const subscriber = async (w: number) => {
          for (let i = 0; Date.now() < until; i++) {
            const app = await call('POST', '/applications', { name: `app-${w}-${i}`, description: 'Load' });
            tally.note('create application', app.status, app.text);
            if (app.status !== 201) continue;
            const appId = (JSON.parse(app.text) as { id: string }).id;
            const sub = await call('POST', `/applications/${appId}/subscriptions?plan=${subscribed.planId}`, {
              request: 'Please',
            });
            tally.note('subscribe', sub.status, sub.text);
            if (sub.status !== 201) continue;
            const subId = (JSON.parse(sub.text) as { id: string }).id;
            const processed = await call(
              'POST',
              `/apis/${subscribed.apiId}/subscriptions/${subId}/_process`,
              {
                accepted: true,
              },
            );
            tally.note('accept', processed.status, processed.text);
            if (processed.status === 200) accepted.push(subId);
          }
        };
        const updater = async (apiId: string) => {
          for (let i = 0; Date.now() < until; i++) {
            const got = await call('GET', `/apis/${apiId}`);
            tally.note('read API', got.status, got.text);
            if (got.status !== 200) continue;
            const description = `revision ${i}`;
            const put = await call('PUT', `/apis/${apiId}`, { description }, { 'if-match': got.etag ?? '*' });
            tally.note('update API', put.status, put.text);
            if (put.status !== 200) continue;
            lastDescription.set(apiId, description);
            const deployed = await call('POST', `/apis/${apiId}/deploy`);
            tally.note('deploy API', deployed.status, deployed.text);
            if (deployed.status === 200) deploys.set(apiId, (deploys.get(apiId) ?? 0) + 1);
          }
        };
        const client = async () => {
          while (Date.now() < until) {
            const res = await fetch(gatewayUrl);
            const text = await res.text();
            tally.note('gateway', res.status, text);
            gatewayAnswers++;
          }
        };

        await Promise.all([
          ...[0, 1, 2].map(subscriber),
          ...updated.map((u) => updater(u.apiId)),
          ...[0, 1, 2, 3, 4, 5].map(client),
        ]);

        const summary = JSON.stringify(Object.fromEntries(tally.counts));
        const logged = portico
          .output()
          .split('\n')
          .filter((line) => /error/i.test(line))
          .slice(0, 5);
        expect(tally.serverErrors(), [summary, ...tally.failures, ...logged].join('\n')).toEqual([]);
        // The load did happen, on every kind of write.
        expect(accepted.length, summary).toBeGreaterThan(5);
        expect(
          [...deploys.values()].every((n) => n > 3),
          summary,
        ).toBe(true);
        expect(gatewayAnswers, summary).toBeGreaterThan(200);

        // Every answered write is stored.
        const subscriptions = await storage.db
          .selectFrom('subscriptions')
          .select(['id', 'status'])
          .where('api_id', '=', subscribed.apiId)
          .execute();
        const status = new Map(subscriptions.map((s) => [s.id, s.status]));
        expect(accepted.filter((id) => status.get(id) !== 'ACCEPTED')).toEqual([]);
        for (const u of updated) {
          const row = await storage.db
            .selectFrom('apis')
            .select('description')
            .where('id', '=', u.apiId)
            .executeTakeFirstOrThrow();
          expect(row.description).toBe(lastDescription.get(u.apiId));
          const published = await storage.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('api_id', '=', u.apiId)
            .where('type', '=', 'PUBLISH_API')
            .executeTakeFirstOrThrow();
          expect(Number(published.n)).toBe(deploys.get(u.apiId));
        }
        // Every gateway call is reported, with its log.
        const reported = async () => {
          const rows = await storage.db
            .selectFrom('requests')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('api_id', '=', traffic.apiId)
            .where('uri', 'like', '%/load?q=1')
            .executeTakeFirstOrThrow();
          return Number(rows.n);
        };
        await eventually(
          async () => (await reported()) >= gatewayAnswers,
          15_000,
          'every gateway call reported',
        );
        expect(await reported()).toBe(gatewayAnswers);
        const logs = await storage.db
          .selectFrom('request_logs')
          .innerJoin('requests', 'requests.id', 'request_logs.id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('requests.api_id', '=', traffic.apiId)
          .where('requests.uri', 'like', '%/load?q=1')
          .executeTakeFirstOrThrow();
        expect(Number(logs.n)).toBe(gatewayAnswers);
      },
      LOAD_MS + 60_000,
    );
  });
}
