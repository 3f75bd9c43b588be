import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';

describe('transform-queryparams policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  const backendUrl = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${h.gateway.url}${path}`, { headers });
    expect(res.status).toBe(200);
    return new URL(((await res.json()) as Echo).url, 'http://backend');
  };

  it('removes parameters, then adds templated ones (replacing what the client sent)', async () => {
    const api = deployedApi('/tq', [h.backend.url], {
      definition: {
        paths: {
          '/': [
            {
              'transform-queryparams': {
                removeQueryParameters: ['secret'],
                addQueryParameters: [
                  { name: 'tenant', value: "{#request.headers['x-tenant']}" },
                  { name: 'page', value: '1' },
                ],
              },
            },
          ],
        },
      },
    });
    await h.deploy(api);
    const url = await backendUrl('/tq/items?secret=s&page=9&keep=yes', { 'x-tenant': 'acme' });
    expect(url.pathname).toBe('/items');
    expect(url.searchParams.get('secret')).toBeNull();
    expect(url.searchParams.get('keep')).toBe('yes');
    expect(url.searchParams.getAll('page')).toEqual(['1']);
    expect(url.searchParams.get('tenant')).toBe('acme');
  });

  it('appends to the values the client sent when appendToExistingArray is set', async () => {
    const api = deployedApi('/tq-append', [h.backend.url], {
      definition: {
        paths: {
          '/': [
            {
              'transform-queryparams': {
                addQueryParameters: [{ name: 'tag', value: 'gateway', appendToExistingArray: true }],
              },
            },
          ],
        },
      },
    });
    await h.deploy(api);
    const url = await backendUrl('/tq-append?tag=a&tag=b');
    expect(url.searchParams.getAll('tag')).toEqual(['a', 'b', 'gateway']);
  });

  it('clears every parameter of the client with clearAll', async () => {
    const api = deployedApi('/tq-clear', [h.backend.url], {
      definition: {
        paths: {
          '/': [
            {
              'transform-queryparams': {
                clearAll: true,
                addQueryParameters: [{ name: 'only', value: 'this' }],
              },
            },
          ],
        },
      },
    });
    await h.deploy(api);
    const url = await backendUrl('/tq-clear?a=1&b=2');
    expect([...url.searchParams]).toEqual([['only', 'this']]);
  });
});
