import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, indexRequestSegments } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { deadUrl, startBackend, type Backend } from './test-support/backends.js';
import { deployedApi, publishEvent, subscribe } from './test-support/deployments.js';
import { startTestGateway } from './test-support/gateway.js';

type TestGateway = Awaited<ReturnType<typeof startTestGateway>>;

async function eventually(check: () => Promise<void> | void, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

describe('gateway: routing, plans and reporting', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let gateway: TestGateway;
  let backend: Backend;
  let other: Backend;

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    backend = await startBackend({ name: 'a' });
    other = await startBackend({ name: 'b' });
    gateway = await startTestGateway(t.storage, bus);
  });
  afterAll(async () => {
    await gateway.cleanup();
    await backend.close();
    await other.close();
    await t.destroy();
  });

  it('answers 404 with a JSON body when no API matches', async () => {
    const res = await fetch(`${gateway.url}/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      message: 'No context-path matches the request URI.',
      http_status: 404,
    });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('strips the context path, keeps the target path and the query string, and sets X-Forwarded headers', async () => {
    const api = deployedApi('/echo', [`${backend.url}/base`]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      const res = await fetch(`${gateway.url}/echo/items/42?q=1&r=two`, {
        headers: { 'x-transaction-id': 'tx-1' },
      });
      expect(res.status).toBe(200);
      const seen = (await res.json()) as { url: string; headers: Record<string, string> };
      expect(seen.url).toBe('/base/items/42?q=1&r=two');
      expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(seen.headers['x-forwarded-prefix']).toBe('/echo');
      expect(seen.headers['x-transaction-id']).toBe('tx-1');
      expect(res.headers.get('x-transaction-id')).toBe('tx-1');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  it('forwards the query string exactly as the client wrote it', async () => {
    await eventually(async () => {
      const res = await fetch(`${gateway.url}/echo/raw?q=a%20b&flag&x=1+2&e=%C3%A9`);
      expect(((await res.json()) as { url: string }).url).toBe('/base/raw?q=a%20b&flag&x=1+2&e=%C3%A9');
    });
  });

  it('streams request bodies to the backend and back', async () => {
    const api = deployedApi('/upload', [backend.url]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    const payload = 'x'.repeat(200_000);
    await eventually(async () => {
      const res = await fetch(`${gateway.url}/upload`, { method: 'POST', body: payload });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { body: string }).body).toBe(payload);
    });
  });

  it('matches the longest context path first', async () => {
    const short = deployedApi('/shop', [backend.url]);
    const long = deployedApi('/shop/orders', [other.url]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', short);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', long);
    await eventually(async () => {
      expect(
        ((await (await fetch(`${gateway.url}/shop/orders/1`)).json()) as { backend: string }).backend,
      ).toBe('b');
      expect(((await (await fetch(`${gateway.url}/shop/cart`)).json()) as { backend: string }).backend).toBe(
        'a',
      );
    });
  });

  it('stops serving an API on STOP_API and serves it again on START_API', async () => {
    const api = deployedApi('/lifecycle', [backend.url]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/lifecycle`)).status).toBe(200));
    await publishEvent(t.storage.db, bus, 'STOP_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/lifecycle`)).status).toBe(404));
    await publishEvent(t.storage.db, bus, 'START_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/lifecycle`)).status).toBe(200));
    await publishEvent(t.storage.db, bus, 'UNPUBLISH_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/lifecycle`)).status).toBe(404));
  });

  it('refuses a missing or unknown API key and lets a subscribed key through', async () => {
    const api = deployedApi('/keyed', [backend.url], { plans: [{ security: 'API_KEY' }] });
    const { subscriptionId } = await subscribe(t.storage.db, api, api.plans[0]!.id, { key: 'key-valid-1' });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      const missing = await fetch(`${gateway.url}/keyed`);
      expect(missing.status).toBe(401);
      expect(((await missing.json()) as { message: string }).message).toBe('API Key is missing');
    });
    const unknown = await fetch(`${gateway.url}/keyed`, { headers: { 'X-Api-Key': 'nope' } });
    expect(unknown.status).toBe(401);
    const ok = await fetch(`${gateway.url}/keyed`, { headers: { 'X-Api-Key': 'key-valid-1' } });
    expect(ok.status).toBe(200);
    const seen = (await ok.json()) as { headers: Record<string, string> };
    expect(seen.headers['x-api-key']).toBeUndefined();
    expect((await fetch(`${gateway.url}/keyed?api-key=key-valid-1`)).status).toBe(200);

    // Revoked in the database and announced on the bus: refused within a second.
    await t.storage.db
      .updateTable('api_keys')
      .set({ revoked: 1, updated_at: Date.now() })
      .where('key', '=', 'key-valid-1')
      .execute();
    bus.publish({ kind: 'apikey', id: 'key-valid-1', apiId: api.id });
    await eventually(
      async () =>
        expect(
          (await fetch(`${gateway.url}/keyed`, { headers: { 'X-Api-Key': 'key-valid-1' } })).status,
        ).toBe(401),
      1000,
    );
    expect(subscriptionId).toBeTruthy();
  });

  it('sends the API key on to the backend only when the plan says so', async () => {
    const api = deployedApi('/propagated', [backend.url], {
      plans: [{ security: 'API_KEY', securityDefinition: JSON.stringify({ propagateApiKey: true }) }],
    });
    await subscribe(t.storage.db, api, api.plans[0]!.id, { key: 'key-propagated-1' });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      const res = await fetch(`${gateway.url}/propagated`, { headers: { 'X-Api-Key': 'key-propagated-1' } });
      expect(((await res.json()) as { headers: Record<string, string> }).headers['x-api-key']).toBe(
        'key-propagated-1',
      );
    });
  });

  it('uses the API response template of the error key', async () => {
    const api = deployedApi('/templated', [backend.url], {
      plans: [{ security: 'API_KEY' }],
      definition: {
        response_templates: {
          API_KEY_MISSING: {
            'application/xml': { status: 403, headers: { 'x-why': 'no-key' }, body: '<error>no key</error>' },
          },
        },
      },
    });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      const res = await fetch(`${gateway.url}/templated`, { headers: { accept: 'application/xml' } });
      expect(res.status).toBe(403);
      expect(res.headers.get('x-why')).toBe('no-key');
      expect(await res.text()).toBe('<error>no key</error>');
    });
    const json = await fetch(`${gateway.url}/templated`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(401);
  });

  it('applies the rate limit of the plan with its headers', async () => {
    const api = deployedApi('/limited', [backend.url], {
      plans: [
        {
          security: 'KEY_LESS',
          paths: {
            '/': [{ 'rate-limit': { rate: { limit: 2, periodTime: 1, periodTimeUnit: 'MINUTES' } } }],
          },
        },
      ],
    });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () =>
      expect((await fetch(`${gateway.url}/limited`)).headers.get('x-rate-limit-limit')).toBe('2'),
    );
    const second = await fetch(`${gateway.url}/limited`);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-rate-limit-remaining')).toBe('0');
    const third = await fetch(`${gateway.url}/limited`);
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toMatch(/Rate limit exceeded/);
  });

  it('balances round robin over the endpoints of the group', async () => {
    const api = deployedApi('/balanced', [backend.url, other.url]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/balanced`)).status).toBe(200));
    const seen: string[] = [];
    for (let i = 0; i < 4; i++)
      seen.push(((await (await fetch(`${gateway.url}/balanced`)).json()) as { backend: string }).backend);
    expect(seen.filter((b) => b === 'a')).toHaveLength(2);
    expect(seen.filter((b) => b === 'b')).toHaveLength(2);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it('fails over to another endpoint, and answers 502 when none answers', async () => {
    const dead = await deadUrl();
    const api = deployedApi('/failover', [dead, backend.url], {
      definition: {
        proxy: {
          context_path: '/failover',
          failover: { maxAttempts: 2, retryTimeout: 2000, cases: ['TIMEOUT'] },
          groups: [
            {
              name: 'g',
              endpoints: [
                { name: 'dead', target: dead },
                { name: 'alive', target: backend.url },
              ],
            },
          ],
        } as never,
      },
    });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      for (let i = 0; i < 4; i++) expect((await fetch(`${gateway.url}/failover`)).status).toBe(200);
    });
    const down = deployedApi('/down', [dead]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', down);
    await eventually(async () => expect((await fetch(`${gateway.url}/down`)).status).toBe(502));
  });

  it('answers 504 when the backend is slower than the read timeout', async () => {
    const slow = await startBackend({ name: 'slow', delayMs: 1500 });
    try {
      const api = deployedApi('/slow', [slow.url], {
        definition: {
          proxy: {
            context_path: '/slow',
            groups: [{ name: 'g', http: { readTimeout: 200 }, endpoints: [{ name: 's', target: slow.url }] }],
          } as never,
        },
      });
      await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
      await eventually(async () => expect((await fetch(`${gateway.url}/slow`)).status).toBe(504));
    } finally {
      await slow.close();
    }
  });

  it('writes one metrics record per request', async () => {
    const api = deployedApi('/reported', [backend.url]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/reported/x?y=1`)).status).toBe(200));
    await gateway.reporter.flush();
    await indexRequestSegments(t.storage.db);
    const rows = await t.storage.db
      .selectFrom('requests')
      .selectAll()
      .where('api_id', '=', api.id)
      .where('status', '=', 200)
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({
      method: 'GET',
      path: '/reported/x',
      uri: '/reported/x?y=1',
      plan_id: api.plans[0]!.id,
      gateway: gateway.id,
    });
    expect(row.endpoint).toBe(`${backend.url}/`);
    expect(row.api_response_time).toBeGreaterThanOrEqual(0);
    expect(row.response_time).toBeGreaterThanOrEqual(row.api_response_time);
    expect(gateway.reporter.dropped).toBe(0);
  });

  it('answers GET /metrics on its own port (no metrics port set) with the requests it served', async () => {
    await eventually(async () => expect((await fetch(`${gateway.url}/reported/m`)).status).toBe(200));
    const res = await fetch(`${gateway.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^portico_gateway_requests_total\{api="[^"]+",.*status_class="2xx"\} [1-9]/m);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).not.toContain('/reported');
  });
});
