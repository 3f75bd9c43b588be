import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi, subscribe } from '../../test-support/deployments.js';
import { startPolicyHarness, type PolicyHarness } from '../../test-support/policy-harness.js';

const quota = (limit: number, extra: Record<string, unknown> = {}) => ({
  quota: { quota: { limit, periodTime: 1, periodTimeUnit: 'MONTHS' }, ...extra },
});

describe('quota policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  it('sends the quota headers and answers 429 once the quota is used, without calling the backend', async () => {
    const api = deployedApi('/quota-basic', [h.backend.url], {
      plans: [{ security: 'KEY_LESS', paths: { '/': [quota(2)] } }],
    });
    await h.deploy(api);
    const hitsBefore = h.backend.hits;

    const first = await fetch(`${h.gateway.url}/quota-basic`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-quota-limit')).toBe('2');
    expect(first.headers.get('x-quota-remaining')).toBe('1');
    expect(Number(first.headers.get('x-quota-reset'))).toBeGreaterThan(Date.now());
    expect((await fetch(`${h.gateway.url}/quota-basic`)).headers.get('x-quota-remaining')).toBe('0');

    const refused = await fetch(`${h.gateway.url}/quota-basic`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-quota-remaining')).toBe('0');
    expect(await refused.json()).toEqual({
      message: 'Quota exceeded! You reached the limit of 2 requests per 1 months',
      http_status: 429,
    });
    expect(h.backend.hits - hitsBefore).toBe(2);
  });

  it('counts per subscription', async () => {
    const api = deployedApi('/quota-subscriptions', [h.backend.url], {
      plans: [{ security: 'API_KEY', paths: { '/': [quota(1)] } }],
    });
    await subscribe(h.t.storage.db, api, api.plans[0]!.id, { key: 'quota-key-one' });
    await subscribe(h.t.storage.db, api, api.plans[0]!.id, { key: 'quota-key-two' });
    await h.deploy(api);
    const call = (key: string) =>
      fetch(`${h.gateway.url}/quota-subscriptions`, { headers: { 'x-api-key': key } });

    expect((await call('quota-key-one')).status).toBe(200);
    expect((await call('quota-key-one')).status).toBe(429);
    expect((await call('quota-key-two')).status).toBe(200);
  });

  it('keeps the rate limit and the quota of one plan apart', async () => {
    const api = deployedApi('/quota-and-rate', [h.backend.url], {
      plans: [
        {
          security: 'KEY_LESS',
          paths: {
            '/': [
              { 'rate-limit': { rate: { limit: 5, periodTime: 60, periodTimeUnit: 'MINUTES' } } },
              quota(1),
            ],
          },
        },
      ],
    });
    await h.deploy(api);
    const ok = await fetch(`${h.gateway.url}/quota-and-rate`);
    expect(ok.headers.get('x-rate-limit-remaining')).toBe('4');
    expect(ok.headers.get('x-quota-remaining')).toBe('0');
    const refused = await fetch(`${h.gateway.url}/quota-and-rate`);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^Quota exceeded/);
  });

  it('answers through the API response template of QUOTA_TOO_MANY_REQUESTS', async () => {
    const api = deployedApi('/quota-templated', [h.backend.url], {
      plans: [{ security: 'KEY_LESS', paths: { '/': [quota(0, { addHeaders: false })] } }],
      definition: {
        response_templates: {
          QUOTA_TOO_MANY_REQUESTS: { 'text/plain': { status: 402, headers: {}, body: 'Buy more calls' } },
        },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/quota-templated`, { headers: { accept: 'text/plain' } });
    expect(res.status).toBe(402);
    expect(res.headers.get('x-quota-limit')).toBeNull();
    expect(await res.text()).toBe('Buy more calls');
  });
});
