import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi, subscribe } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import { rawGet } from '../test-support/raw-request.js';
import { withoutQueryParam } from './incoming-request.js';

describe('withoutQueryParam', () => {
  it('removes every occurrence of the name, encoded or not, and keeps the rest as written', () => {
    expect(withoutQueryParam('b=2&api-key=k&a=%20x+y&c', 'api-key')).toBe('b=2&a=%20x+y&c');
    expect(withoutQueryParam('api%2Dkey=k&z=%2F', 'api-key')).toBe('z=%2F');
    expect(withoutQueryParam('api-key=1&api-key=2', 'api-key')).toBe('');
    expect(withoutQueryParam('x=api-key&api-keys=1', 'api-key')).toBe('x=api-key&api-keys=1');
    expect(withoutQueryParam('q=%zz&a=1', 'api-key')).toBe('q=%zz&a=1');
  });
});

describe('gateway: the API key is not sent upstream', () => {
  let h: PolicyHarness;
  let other: Awaited<ReturnType<typeof startTestGateway>>;
  beforeAll(async () => {
    h = await startPolicyHarness();
    const api = deployedApi('/keyed-query', [`${h.backend.url}/base`], { plans: [{ security: 'API_KEY' }] });
    await subscribe(h.t.storage.db, api, api.plans[0]!.id, { key: 'key-query-1' });
    const propagated = deployedApi('/keyed-propagated', [h.backend.url], {
      plans: [{ security: 'API_KEY', securityDefinition: JSON.stringify({ propagateApiKey: true }) }],
    });
    await subscribe(h.t.storage.db, propagated, propagated.plans[0]!.id, { key: 'key-query-2' });
    await h.deploy(api);
    await h.deploy(propagated);
    other = await startTestGateway(h.t.storage, h.bus, { apiKeyQueryParam: 'token', apiKeyHeader: 'X-Key' });
    await other.sync.sync();
  });
  afterAll(async () => {
    await other.cleanup();
    await h.close();
  });

  const echo = async (base: string, path: string, headers: Record<string, string> = {}) => {
    const res = await rawGet(base, path, headers);
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body) as Echo;
  };

  it('removes the key query parameter and keeps the others, their order and their encoding', async () => {
    const seen = await echo(h.gateway.url, '/keyed-query/items?b=2&api-key=key-query-1&a=%20x+y&c&d=%2F');
    expect(seen.url).toBe('/base/items?b=2&a=%20x+y&c&d=%2F');
    expect(await echo(h.gateway.url, '/keyed-query?api-key=key-query-1')).toMatchObject({ url: '/base' });
  });

  it('removes the key header', async () => {
    const seen = await echo(h.gateway.url, '/keyed-query/items?a=1', { 'X-Api-Key': 'key-query-1' });
    expect(seen.url).toBe('/base/items?a=1');
    expect(seen.headers['x-api-key']).toBeUndefined();
  });

  it('removes the configured query parameter and header names', async () => {
    const byQuery = await echo(other.url, '/keyed-query/items?token=key-query-1&api-key=kept');
    expect(byQuery.url).toBe('/base/items?api-key=kept');
    const byHeader = await echo(other.url, '/keyed-query/items', { 'X-Key': 'key-query-1' });
    expect(byHeader.headers['x-key']).toBeUndefined();
  });

  it('sends the key on when the plan propagates it', async () => {
    const seen = await echo(h.gateway.url, '/keyed-propagated/items?api-key=key-query-2&a=1');
    expect(seen.url).toBe('/items?api-key=key-query-2&a=1');
  });
});
