import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../../test-support/policy-harness.js';

describe('assign-content policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  it('sends the templated request body to the backend', async () => {
    await h.deploy(
      deployedApi('/assigned-request', [h.backend.url], {
        definition: {
          properties: [{ key: 'source', value: 'portico' }],
          paths: {
            '/': [
              {
                'assign-content': {
                  scope: 'REQUEST',
                  body: '{"wrapped":{#request.content},"by":"{#properties[\'source\']}","user":"{#request.headers[\'x-user\']}"}',
                },
              },
            ],
          },
        },
      }),
    );
    const res = await fetch(`${h.gateway.url}/assigned-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'ada' },
      body: '{"qty":3}',
    });
    expect(res.status).toBe(200);
    const seen = (await res.json()) as Echo;
    expect(JSON.parse(seen.body)).toEqual({ wrapped: { qty: 3 }, by: 'portico', user: 'ada' });
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(seen.body)));
  });

  it('gives a body to a request that had none', async () => {
    await h.deploy(
      deployedApi('/assigned-get', [h.backend.url], {
        definition: {
          paths: {
            '/': [
              { 'override-http-method': { method: 'POST' } },
              { 'assign-content': { body: "q={#request.params['q']}" } },
            ],
          },
        },
      }),
    );
    const res = await fetch(`${h.gateway.url}/assigned-get?q=shoes`);
    const seen = (await res.json()) as Echo;
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('q=shoes');
  });

  it('sends the templated response body to the client, with the status and headers of the backend', async () => {
    await h.deploy(
      deployedApi('/assigned-response', [h.backend.url], {
        definition: {
          paths: {
            '/': [
              {
                'assign-content': {
                  scope: 'RESPONSE',
                  body: '{"status":{#response.status},"from":"{#response.headers[\'x-backend\']}","data":{#response.content}}',
                },
              },
            ],
          },
        },
      }),
    );
    const res = await fetch(`${h.gateway.url}/assigned-response/items`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: number; from: string; data: Echo };
    expect(body.status).toBe(200);
    expect(body.from).toBe('backend');
    expect(body.data.url).toBe('/items');
  });
});
