import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';

describe('mock policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  it('answers with its status, headers and templated content, without calling the backend', async () => {
    const api = deployedApi('/mocked', [h.backend.url], {
      definition: {
        paths: {
          '/orders/:id': [
            {
              mock: {
                status: 201,
                headers: [
                  { name: 'Content-Type', value: 'application/json' },
                  { name: 'X-Mocked-For', value: "{#request.headers['x-client']}" },
                ],
                content: '{"path":"{#request.pathInfo}","q":"{#request.params[\'q\']}"}',
              },
            },
          ],
        },
      },
    });
    await h.deploy(api);
    const hitsBefore = h.backend.hits;
    const res = await fetch(`${h.gateway.url}/mocked/orders/7?q=x`, { headers: { 'x-client': 'acme' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-mocked-for')).toBe('acme');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toEqual({ path: '/orders/7', q: 'x' });
    expect(h.backend.hits).toBe(hitsBefore);

    // Paths without the mock still reach the backend.
    const real = await fetch(`${h.gateway.url}/mocked/customers`);
    expect(((await real.json()) as Echo).url).toBe('/customers');
    expect(h.backend.hits).toBe(hitsBefore + 1);
  });

  it('runs after the plan policies: a refused call is not mocked', async () => {
    const api = deployedApi('/mocked-limited', [h.backend.url], {
      plans: [
        {
          security: 'KEY_LESS',
          paths: {
            '/': [{ 'rate-limit': { rate: { limit: 1, periodTime: 60, periodTimeUnit: 'MINUTES' } } }],
          },
        },
      ],
      definition: { paths: { '/': [{ mock: { content: 'mocked' } }] } },
    });
    await h.deploy(api);
    const first = await fetch(`${h.gateway.url}/mocked-limited`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(await first.text()).toBe('mocked');
    expect((await fetch(`${h.gateway.url}/mocked-limited`)).status).toBe(429);
  });
});
