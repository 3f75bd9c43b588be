import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi, subscribe } from '../../test-support/deployments.js';
import { startPolicyHarness, type PolicyHarness } from '../../test-support/policy-harness.js';

// Periods of an hour (60 minutes): a window boundary (windows are aligned on the period) cannot fall inside a test.
const rateLimit = (limit: number, extra: Record<string, unknown> = {}) => ({
  'rate-limit': { rate: { limit, periodTime: 60, periodTimeUnit: 'MINUTES' }, ...extra },
});

describe('rate-limit policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  it('lets the limit through, then answers 429 with the rate-limit headers without calling the backend', async () => {
    const api = deployedApi('/rl-basic', [h.backend.url], {
      plans: [{ security: 'KEY_LESS', paths: { '/': [rateLimit(2)] } }],
    });
    await h.deploy(api);
    const hitsBefore = h.backend.hits;

    const first = await fetch(`${h.gateway.url}/rl-basic`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-rate-limit-limit')).toBe('2');
    expect(first.headers.get('x-rate-limit-remaining')).toBe('1');
    const second = await fetch(`${h.gateway.url}/rl-basic`);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-rate-limit-remaining')).toBe('0');

    const third = await fetch(`${h.gateway.url}/rl-basic`);
    expect(third.status).toBe(429);
    expect(third.headers.get('x-rate-limit-limit')).toBe('2');
    expect(third.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(Number(third.headers.get('x-rate-limit-reset'))).toBeGreaterThan(Date.now());
    expect(await third.json()).toEqual({
      message: 'Rate limit exceeded! You reached the limit of 2 requests per 60 minutes',
      http_status: 429,
    });
    expect(h.backend.hits - hitsBefore).toBe(2);
  });

  it('counts per subscription: one application at its limit does not stop another', async () => {
    const api = deployedApi('/rl-subscriptions', [h.backend.url], {
      plans: [{ security: 'API_KEY', paths: { '/': [rateLimit(1)] } }],
    });
    await subscribe(h.t.storage.db, api, api.plans[0]!.id, { key: 'rl-key-one' });
    await subscribe(h.t.storage.db, api, api.plans[0]!.id, { key: 'rl-key-two' });
    await h.deploy(api);
    const call = (key: string) =>
      fetch(`${h.gateway.url}/rl-subscriptions`, { headers: { 'x-api-key': key } });

    expect((await call('rl-key-one')).status).toBe(200);
    expect((await call('rl-key-one')).status).toBe(429);
    const other = await call('rl-key-two');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-rate-limit-remaining')).toBe('0');
    expect((await call('rl-key-two')).status).toBe(429);
  });

  it('sends no rate-limit headers when addHeaders is false', async () => {
    const api = deployedApi('/rl-quiet', [h.backend.url], {
      plans: [{ security: 'KEY_LESS', paths: { '/': [rateLimit(1, { addHeaders: false })] } }],
    });
    await h.deploy(api);
    const ok = await fetch(`${h.gateway.url}/rl-quiet`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-rate-limit-limit')).toBeNull();
    const refused = await fetch(`${h.gateway.url}/rl-quiet`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-rate-limit-remaining')).toBeNull();
  });

  it('answers through the API response template of RATE_LIMIT_TOO_MANY_REQUESTS', async () => {
    const api = deployedApi('/rl-templated', [h.backend.url], {
      plans: [{ security: 'KEY_LESS', paths: { '/': [rateLimit(0)] } }],
      definition: {
        response_templates: {
          RATE_LIMIT_TOO_MANY_REQUESTS: {
            '*/*': { status: 503, headers: { 'retry-after': '60' }, body: '{"slow":"down"}' },
          },
        },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/rl-templated`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(await res.json()).toEqual({ slow: 'down' });
  });

  it('applies only on the path and methods of its step', async () => {
    const api = deployedApi('/rl-scoped', [h.backend.url], {
      plans: [{ security: 'KEY_LESS', paths: { '/orders': [{ methods: ['POST'], ...rateLimit(0) }] } }],
    });
    await h.deploy(api);
    expect((await fetch(`${h.gateway.url}/rl-scoped/orders`, { method: 'POST', body: '{}' })).status).toBe(
      429,
    );
    expect((await fetch(`${h.gateway.url}/rl-scoped/orders`)).status).toBe(200);
    expect((await fetch(`${h.gateway.url}/rl-scoped/items`, { method: 'POST', body: '{}' })).status).toBe(
      200,
    );
  });
});
