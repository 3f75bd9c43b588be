import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, startTestApp, type TestApp, type TestSession } from '../../test-support/index.js';

describe('policy and resource registries', () => {
  let t: TestApp;
  let admin: TestSession;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    admin = await login(t.app, 'admin', 'admin');
  });
  afterAll(async () => t.close());

  it('lists every gateway policy, with its JSON schema when expandSchema=true', async () => {
    const plain = await call(t.app, admin, { method: 'GET', url: '/policies' });
    expect(plain.statusCode).toBe(200);
    const ids = plain.json<{ id: string; schema?: unknown }[]>().map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['rate-limit', 'quota', 'resource-filtering', 'mock']));
    expect(plain.json<{ schema?: unknown }[]>()[0]!.schema).toBeUndefined();
    const expanded = await call(t.app, admin, { method: 'GET', url: '/policies?expandSchema=true' });
    const rateLimit = expanded
      .json<{ id: string; name: string; schema: { type: string; properties: object } }[]>()
      .find((p) => p.id === 'rate-limit')!;
    expect(rateLimit.name).toBe('Rate limiting');
    expect(rateLimit.schema.type).toBe('object');
    expect(Object.keys(rateLimit.schema.properties)).toContain('rate');
  });

  it("serves one policy's schema and answers 404 for an unknown policy", async () => {
    const schema = await call(t.app, admin, { method: 'GET', url: '/policies/quota/schema' });
    expect(schema.statusCode).toBe(200);
    expect(schema.json<{ type: string }>().type).toBe('object');
    const unknown = await call(t.app, admin, { method: 'GET', url: '/policies/nope/schema' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Policy [nope] can not be found.', http_status: 404 });
  });

  it('lists the resource types with their schemas', async () => {
    const list = await call(t.app, admin, { method: 'GET', url: '/resources' });
    expect(list.json<{ id: string }[]>().map((r) => r.id)).toContain('oauth2');
    const schema = await call(t.app, admin, { method: 'GET', url: '/resources/oauth2/schema' });
    expect(Object.keys(schema.json<{ properties: object }>().properties)).toContain('introspectionEndpoint');
    expect((await call(t.app, admin, { method: 'GET', url: '/resources/nope/schema' })).statusCode).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await call(t.app, undefined, { method: 'GET', url: '/policies' })).statusCode).toBe(401);
  });
});
