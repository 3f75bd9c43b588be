import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';
import { validatePolicyConfiguration } from '../registry.js';

describe('override-http-method policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  it('calls the backend with the configured method, body included', async () => {
    const api = deployedApi('/override', [h.backend.url], {
      definition: {
        paths: { '/': [{ methods: ['POST'], 'override-http-method': { method: 'PUT' } }] },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/override/orders/1`, { method: 'POST', body: '{"qty":2}' });
    expect(res.status).toBe(200);
    const seen = (await res.json()) as Echo;
    expect(seen.method).toBe('PUT');
    expect(seen.body).toBe('{"qty":2}');

    // The step's methods filter still applies: a GET is sent as a GET.
    const get = await fetch(`${h.gateway.url}/override/orders/1`);
    expect(((await get.json()) as Echo).method).toBe('GET');
  });

  it('refuses a method that does not exist', () => {
    const result = validatePolicyConfiguration('override-http-method', { method: 'FETCH' });
    expect(result).toMatchObject({ ok: false, field: 'method' });
  });
});
