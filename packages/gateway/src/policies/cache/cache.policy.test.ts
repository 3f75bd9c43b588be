import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../test-support/backends.js';
import { deployedApi, subscribe } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';

describe('cache policy', () => {
  let h: PolicyHarness;
  let missing: Backend;
  beforeAll(async () => {
    h = await startPolicyHarness({
      headers: (req): Record<string, string> =>
        req.url?.startsWith('/no-store') ? { 'cache-control': 'no-store' } : {},
    });
    missing = await startBackend({ name: 'missing', status: 404 });
  });
  afterAll(async () => {
    await missing.close();
    await h.close();
  });

  const cached = (contextPath: string, config: Record<string, unknown>, target = h.backend.url) =>
    deployedApi(contextPath, [target], { definition: { paths: { '/': [{ cache: config }] } } });

  it('answers the second GET from the cache (X-Cache: HIT) without calling the backend', async () => {
    await h.deploy(cached('/cached', { timeToLiveSeconds: 60, scope: 'API' }));
    const hitsBefore = h.backend.hits;

    const first = await fetch(`${h.gateway.url}/cached/items?page=1`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const firstBody = (await first.json()) as Echo;

    const second = await fetch(`${h.gateway.url}/cached/items?page=1`);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('content-type')).toBe('application/json');
    expect(second.headers.get('x-backend')).toBe('backend');
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await second.json()).toEqual(firstBody);
    expect(h.backend.hits - hitsBefore).toBe(1);

    // Another path or query is another entry.
    expect((await fetch(`${h.gateway.url}/cached/items?page=2`)).headers.get('x-cache')).toBe('MISS');
    expect((await fetch(`${h.gateway.url}/cached/other`)).headers.get('x-cache')).toBe('MISS');
    expect(h.backend.hits - hitsBefore).toBe(3);
  });

  it('never caches other methods than those configured', async () => {
    await h.deploy(cached('/cached-post', { timeToLiveSeconds: 60 }));
    const hitsBefore = h.backend.hits;
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${h.gateway.url}/cached-post`, { method: 'POST', body: `call ${i}` });
      expect(res.headers.get('x-cache')).toBeNull();
      expect(((await res.json()) as Echo).body).toBe(`call ${i}`);
    }
    expect(h.backend.hits - hitsBefore).toBe(2);
  });

  it('forgets an entry once its time to live is over', async () => {
    await h.deploy(cached('/cached-ttl', { timeToLiveSeconds: 1 }));
    const hitsBefore = h.backend.hits;
    expect((await fetch(`${h.gateway.url}/cached-ttl`)).headers.get('x-cache')).toBe('MISS');
    expect((await fetch(`${h.gateway.url}/cached-ttl`)).headers.get('x-cache')).toBe('HIT');
    await sleep(1100);
    expect((await fetch(`${h.gateway.url}/cached-ttl`)).headers.get('x-cache')).toBe('MISS');
    expect(h.backend.hits - hitsBefore).toBe(2);
  });

  it('does not cache error responses', async () => {
    await h.deploy(cached('/cached-404', { timeToLiveSeconds: 60 }, missing.url));
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${h.gateway.url}/cached-404`);
      expect(res.status).toBe(404);
      expect(res.headers.get('x-cache')).toBe('MISS');
    }
    expect(missing.hits).toBe(2);
  });

  it("follows the backend's Cache-Control when useResponseCacheHeaders is set", async () => {
    await h.deploy(cached('/cached-headers', { timeToLiveSeconds: 60, useResponseCacheHeaders: true }));
    const hitsBefore = h.backend.hits;
    await fetch(`${h.gateway.url}/cached-headers/no-store`);
    expect((await fetch(`${h.gateway.url}/cached-headers/no-store`)).headers.get('x-cache')).toBe('MISS');
    await fetch(`${h.gateway.url}/cached-headers/plain`);
    expect((await fetch(`${h.gateway.url}/cached-headers/plain`)).headers.get('x-cache')).toBe('HIT');
    expect(h.backend.hits - hitsBefore).toBe(3);
  });

  it('keeps entries per application (APPLICATION scope) or shares them (API scope)', async () => {
    const perApplication = deployedApi('/cached-apps', [h.backend.url], {
      plans: [{ security: 'API_KEY' }],
      definition: { paths: { '/': [{ cache: { scope: 'APPLICATION' } }] } },
    });
    const shared = deployedApi('/cached-shared', [h.backend.url], {
      plans: [{ security: 'API_KEY' }],
      definition: { paths: { '/': [{ cache: { scope: 'API' } }] } },
    });
    for (const api of [perApplication, shared]) {
      await subscribe(h.t.storage.db, api, api.plans[0]!.id, { key: `${api.id}-one` });
      await subscribe(h.t.storage.db, api, api.plans[0]!.id, { key: `${api.id}-two` });
      await h.deploy(api);
    }
    const cacheOf = async (path: string, key: string) =>
      (await fetch(`${h.gateway.url}${path}`, { headers: { 'x-api-key': key } })).headers.get('x-cache');

    expect(await cacheOf('/cached-apps', `${perApplication.id}-one`)).toBe('MISS');
    expect(await cacheOf('/cached-apps', `${perApplication.id}-one`)).toBe('HIT');
    expect(await cacheOf('/cached-apps', `${perApplication.id}-two`)).toBe('MISS');

    expect(await cacheOf('/cached-shared', `${shared.id}-one`)).toBe('MISS');
    expect(await cacheOf('/cached-shared', `${shared.id}-two`)).toBe('HIT');
  });

  it('adds the templated key to the cache key', async () => {
    await h.deploy(cached('/cached-keyed', { key: "{#request.headers['accept-language']}" }));
    const call = async (language: string) =>
      (
        await fetch(`${h.gateway.url}/cached-keyed`, { headers: { 'accept-language': language } })
      ).headers.get('x-cache');
    expect(await call('fr')).toBe('MISS');
    expect(await call('en')).toBe('MISS');
    expect(await call('fr')).toBe('HIT');
  });

  it('starts empty again when the API is redeployed', async () => {
    const api = cached('/cached-redeployed', {});
    await h.deploy(api);
    await fetch(`${h.gateway.url}/cached-redeployed`);
    expect((await fetch(`${h.gateway.url}/cached-redeployed`)).headers.get('x-cache')).toBe('HIT');
    await h.deploy({ ...api, deployed_at: Date.now() + 1 });
    await expect
      .poll(async () => (await fetch(`${h.gateway.url}/cached-redeployed`)).headers.get('x-cache'))
      .toBe('MISS');
  });
});
