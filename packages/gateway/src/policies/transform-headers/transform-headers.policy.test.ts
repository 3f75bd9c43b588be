import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';

describe('transform-headers policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  it('adds (templated) and removes request headers before the backend sees them', async () => {
    const api = deployedApi('/th-request', [h.backend.url], {
      definition: {
        properties: [{ key: 'region', value: 'eu-west' }],
        paths: {
          '/': [
            {
              'transform-headers': {
                scope: 'REQUEST',
                addHeaders: [
                  { name: 'X-Tenant', value: "{#request.headers['x-client']}-{#properties['region']}" },
                  { name: 'X-Static', value: 'fixed' },
                ],
                removeHeaders: ['X-Secret'],
              },
            },
          ],
        },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/th-request`, {
      headers: { 'x-client': 'acme', 'x-secret': 's3cr3t' },
    });
    expect(res.status).toBe(200);
    const seen = (await res.json()) as Echo;
    expect(seen.headers['x-tenant']).toBe('acme-eu-west');
    expect(seen.headers['x-static']).toBe('fixed');
    expect(seen.headers['x-secret']).toBeUndefined();
    expect(seen.headers['x-client']).toBe('acme');
  });

  it('keeps only the whitelisted request headers', async () => {
    const api = deployedApi('/th-whitelist', [h.backend.url], {
      definition: {
        paths: { '/': [{ 'transform-headers': { whitelistHeaders: ['X-Keep', 'Accept'] } }] },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/th-whitelist`, { headers: { 'x-keep': '1', 'x-drop': '2' } });
    const seen = (await res.json()) as Echo;
    expect(seen.headers['x-keep']).toBe('1');
    expect(seen.headers['x-drop']).toBeUndefined();
    expect(seen.headers['user-agent']).toBeUndefined();
  });

  it('adds and removes response headers before the client sees them', async () => {
    const api = deployedApi('/th-response', [h.backend.url], {
      definition: {
        paths: {
          '/': [
            {
              'transform-headers': {
                scope: 'RESPONSE',
                addHeaders: [{ name: 'X-Served-For', value: '{#request.method} {#request.pathInfo}' }],
                removeHeaders: ['X-Backend'],
              },
            },
          ],
        },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/th-response/items`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-served-for')).toBe('GET /items');
    expect(res.headers.get('x-backend')).toBeNull();
    // The request side is left alone.
    expect(((await res.json()) as Echo).headers['x-served-for']).toBeUndefined();
  });
});
