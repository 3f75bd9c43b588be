import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';

describe('resource-filtering policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  const status = async (path: string, method = 'GET') =>
    (await fetch(`${h.gateway.url}${path}`, { method })).status;

  it('with a whitelist, allows only the matching paths and methods', async () => {
    const api = deployedApi('/rf-white', [h.backend.url], {
      plans: [
        {
          security: 'KEY_LESS',
          paths: {
            '/': [
              {
                'resource-filtering': {
                  whitelist: [
                    { pattern: '/orders/**', methods: ['GET'] },
                    { pattern: '/status', methods: [] },
                  ],
                },
              },
            ],
          },
        },
      ],
    });
    await h.deploy(api);
    expect(await status('/rf-white/orders/42')).toBe(200);
    expect(await status('/rf-white/orders/42/lines/1')).toBe(200);
    expect(await status('/rf-white/status', 'DELETE')).toBe(200);
    expect(await status('/rf-white/orders/42', 'DELETE')).toBe(403);
    expect(await status('/rf-white/customers/1')).toBe(403);
    const refused = await fetch(`${h.gateway.url}/rf-white/customers/1`);
    expect(await refused.json()).toEqual({
      message: "You're not allowed to access this resource",
      http_status: 403,
    });
  });

  it('with a blacklist, refuses the matching paths and methods, even when whitelisted', async () => {
    const api = deployedApi('/rf-black', [h.backend.url], {
      plans: [
        {
          security: 'KEY_LESS',
          paths: {
            '/': [
              {
                'resource-filtering': {
                  whitelist: [{ pattern: '/orders/**' }],
                  blacklist: [
                    { pattern: '/orders/*/secret', methods: [] },
                    { pattern: '/orders/**', methods: ['DELETE'] },
                  ],
                },
              },
            ],
          },
        },
      ],
    });
    await h.deploy(api);
    const hitsBefore = h.backend.hits;
    expect(await status('/rf-black/orders/1/secret')).toBe(403);
    expect(await status('/rf-black/orders/1', 'DELETE')).toBe(403);
    expect(h.backend.hits).toBe(hitsBefore);
    const allowed = await fetch(`${h.gateway.url}/rf-black/orders/1`);
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as Echo).url).toBe('/orders/1');
    // `*` stays within one segment.
    expect(await status('/rf-black/orders/1/2/secret')).toBe(200);
  });

  it('answers through the API response template of RESOURCE_FILTERING_FORBIDDEN', async () => {
    const api = deployedApi('/rf-templated', [h.backend.url], {
      plans: [
        {
          security: 'KEY_LESS',
          paths: { '/': [{ 'resource-filtering': { blacklist: [{ pattern: '/**' }] } }] },
        },
      ],
      definition: {
        response_templates: {
          RESOURCE_FILTERING_FORBIDDEN: {
            '*/*': { status: 404, headers: {}, body: '{"message":"Not found"}' },
          },
        },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/rf-templated/anything`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });
});
