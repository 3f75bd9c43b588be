import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import { HEADER_LINE_BREAK } from './headers.js';

const fromQuery = (scope: 'REQUEST' | 'RESPONSE') => ({
  'transform-headers': { scope, addHeaders: [{ name: 'X-From-Query', value: "{#request.params['x']}" }] },
});

describe('gateway: a line break reaching a header from the client', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
    await h.deploy(
      deployedApi('/inject-request', [h.backend.url], {
        definition: { paths: { '/': [fromQuery('REQUEST')] } },
      }),
    );
    await h.deploy(
      deployedApi('/inject-response', [h.backend.url], {
        definition: { paths: { '/': [fromQuery('RESPONSE')] } },
      }),
    );
    // A rate limit (which writes only numbers into headers) before the policy that copies the query.
    await h.deploy(
      deployedApi('/inject-after-limit', [h.backend.url], {
        definition: {
          paths: {
            '/': [
              { 'rate-limit': { rate: { limit: 1000, periodTime: 1, periodTimeUnit: 'SECONDS' } } },
              fromQuery('REQUEST'),
            ],
          },
        },
      }),
    );
    await h.deploy(
      deployedApi('/inject-mock', [h.backend.url], {
        definition: {
          paths: {
            '/': [{ mock: { headers: [{ name: 'X-From-Query', value: "{#request.params['x']}" }] } }],
          },
        },
      }),
    );
  });
  afterAll(() => h.close());

  it('sends an ordinary value on', async () => {
    const res = await fetch(`${h.gateway.url}/inject-request?x=plain%20value`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Echo).headers['x-from-query']).toBe('plain value');
  });

  it.each(['a%0d%0aInjected:1', 'a%0aInjected:1', 'a%0d', 'a%00b'])(
    'answers 400 to ?x=%s in a request header, without calling the backend',
    async (value) => {
      const hits = h.backend.hits;
      const res = await fetch(`${h.gateway.url}/inject-request?x=${value}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: HEADER_LINE_BREAK('x-from-query'), http_status: 400 });
      expect(h.backend.hits).toBe(hits);
    },
  );

  it('answers 400 when a policy that writes only its own numbers ran before the one that copies', async () => {
    const hits = h.backend.hits;
    const res = await fetch(`${h.gateway.url}/inject-after-limit?x=a%0d%0aInjected:1`);
    expect(res.status).toBe(400);
    expect(h.backend.hits).toBe(hits);
  });

  it('answers 400 when the header is one of the response', async () => {
    const res = await fetch(`${h.gateway.url}/inject-response?x=a%0d%0aSet-Cookie:%20evil=1`);
    expect(res.status).toBe(400);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.json()).toEqual({ message: HEADER_LINE_BREAK('x-from-query'), http_status: 400 });
  });

  it("answers 400 when the header is one of a policy's own answer", async () => {
    const res = await fetch(`${h.gateway.url}/inject-mock?x=a%0d%0aInjected:1`);
    expect(res.status).toBe(400);
    expect(res.headers.get('injected')).toBeNull();
  });
});
