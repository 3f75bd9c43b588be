import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';
import { validatePolicyConfiguration } from '../registry.js';

describe('latency policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  it('delays the call and then calls the backend: the request still succeeds', async () => {
    const api = deployedApi('/slowed', [h.backend.url], {
      definition: { paths: { '/': [{ latency: { time: 20, timeUnit: 'MILLISECONDS' } }] } },
    });
    await h.deploy(api);
    const hitsBefore = h.backend.hits;
    const res = await fetch(`${h.gateway.url}/slowed/items`, { method: 'POST', body: 'payload' });
    expect(res.status).toBe(200);
    const seen = (await res.json()) as Echo;
    expect(seen.url).toBe('/items');
    expect(seen.body).toBe('payload');
    expect(h.backend.hits).toBe(hitsBefore + 1);
  });

  it('runs before the backend call: a mock after it still answers alone', async () => {
    const api = deployedApi('/slowed-mock', [h.backend.url], {
      definition: {
        paths: {
          '/': [{ latency: { time: 0, timeUnit: 'SECONDS' } }, { mock: { content: 'after latency' } }],
        },
      },
    });
    await h.deploy(api);
    const hitsBefore = h.backend.hits;
    const res = await fetch(`${h.gateway.url}/slowed-mock`);
    expect(await res.text()).toBe('after latency');
    expect(h.backend.hits).toBe(hitsBefore);
  });

  it('refuses a delay longer than an hour', () => {
    expect(validatePolicyConfiguration('latency', { time: 3601, timeUnit: 'SECONDS' })).toMatchObject({
      ok: false,
      field: 'time',
    });
    expect(validatePolicyConfiguration('latency', { time: 3600, timeUnit: 'SECONDS' })).toMatchObject({
      ok: true,
    });
  });
});
