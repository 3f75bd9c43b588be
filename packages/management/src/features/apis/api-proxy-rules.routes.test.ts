import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createUser,
  errorBody,
  invalidFieldBody,
  login,
  startTestApp,
} from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs, getApi } from './test-support/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit the definition as JSON */
type Proxy = any;

/**
 * The rules of console-apis.md section 5 for the proxy of an API (endpoints and groups, HTTP
 * configuration, CORS and failover), enforced by `PUT apis/{id}`: 400 naming the field, nothing stored.
 */
const BAD: [string, (proxy: Proxy) => void, string, string | RegExp | undefined][] = [
  [
    'a weight of 0',
    (p) => (p.groups[0].endpoints[1].weight = 0),
    'proxy.groups.0.endpoints.1.weight',
    undefined,
  ],
  [
    'a weight of 100',
    (p) => (p.groups[0].endpoints[1].weight = 100),
    'proxy.groups.0.endpoints.1.weight',
    undefined,
  ],
  [
    'no target',
    (p) => (p.groups[0].endpoints[0].target = ''),
    'proxy.groups.0.endpoints.0.target',
    undefined,
  ],
  [
    'no endpoint name',
    (p) => (p.groups[0].endpoints[0].name = ''),
    'proxy.groups.0.endpoints.0.name',
    undefined,
  ],
  [
    "a ':' in an endpoint name",
    (p) => (p.groups[0].endpoints[1].name = 'a:b'),
    'proxy.groups.0.endpoints.1.name',
    'Endpoint name does not support : in its name.',
  ],
  [
    "a ':' in a group name",
    (p) => (p.groups[0].name = 'g:1'),
    'proxy.groups.0.name',
    'Endpoint name does not support : in its name.',
  ],
  [
    'two endpoints of one name',
    (p) => (p.groups[0].endpoints[1].name = 'default'),
    'proxy.groups.0.endpoints.1.name',
    'This name is used by another endpoint and/or an endpoint group.',
  ],
  [
    'an endpoint named as a group',
    (p) => (p.groups[0].endpoints[1].name = 'default-group'),
    'proxy.groups.0.endpoints.1.name',
    'This name is used by another endpoint and/or an endpoint group.',
  ],
  ['no group', (p) => (p.groups = []), 'proxy.groups', 'an API needs at least one endpoint group'],
  [
    'max connections under 10',
    (p) => (p.groups[0].http = { maxConcurrentConnections: 9 }),
    'proxy.groups.0.http.maxConcurrentConnections',
    undefined,
  ],
  [
    'a negative timeout',
    (p) => (p.groups[0].endpoints[0].http = { readTimeout: -1 }),
    'proxy.groups.0.endpoints.0.http.readTimeout',
    undefined,
  ],
  [
    'an enabled proxy without host',
    (p) => (p.groups[0].proxy = { enabled: true, type: 'SOCKS5', port: 1080 }),
    'proxy.groups.0.proxy',
    'type, host and port are required when the proxy is enabled',
  ],
  [
    'an enabled proxy without port',
    (p) => (p.groups[0].endpoints[1].proxy = { enabled: true, type: 'HTTP', host: 'proxy.local' }),
    'proxy.groups.0.endpoints.1.proxy',
    'type, host and port are required when the proxy is enabled',
  ],
  [
    'a proxy port over 65536',
    (p) => (p.groups[0].proxy = { enabled: true, type: 'HTTP', host: 'h', port: 65537 }),
    'proxy.groups.0.proxy.port',
    undefined,
  ],
  [
    'an unknown proxy type',
    (p) => (p.groups[0].proxy = { enabled: true, type: 'FTP', host: 'h', port: 80 }),
    'proxy.groups.0.proxy.type',
    undefined,
  ],
  [
    'a JKS trust store without path nor content',
    (p) => (p.groups[0].ssl = { trustStore: { type: 'JKS', password: 'secret' } }),
    'proxy.groups.0.ssl.trustStore',
    'a path or a content is required',
  ],
  [
    'a PKCS12 key store without password',
    (p) => (p.groups[0].endpoints[0].ssl = { keyStore: { type: 'PKCS12', path: '/etc/k.p12' } }),
    'proxy.groups.0.endpoints.0.ssl.keyStore',
    'a password is required for JKS and PKCS12 stores',
  ],
  [
    'a PEM key store without key',
    (p) => (p.groups[0].ssl = { keyStore: { type: 'PEM', certPath: '/etc/c.pem' } }),
    'proxy.groups.0.ssl.keyStore',
    'a PEM key store needs a certificate and a key (path or content)',
  ],
  [
    'a PEM trust store without path nor content',
    (p) => (p.groups[0].ssl = { trustStore: { type: 'PEM' } }),
    'proxy.groups.0.ssl.trustStore',
    'a path or a content is required',
  ],
  [
    'a header without value',
    (p) => (p.groups[0].headers = { 'X-Env': '' }),
    'proxy.groups.0.headers',
    'Header names and values are required.',
  ],
  [
    'an enabled CORS without origins',
    (p) => (p.cors = { enabled: true, allowOrigin: [], allowMethods: ['GET'] }),
    'proxy.cors.allowOrigin',
    'Allowed origins are required.',
  ],
  [
    'an enabled CORS without methods',
    (p) => (p.cors = { enabled: true, allowOrigin: ['*'], allowMethods: [] }),
    'proxy.cors.allowMethods',
    'Allowed methods are required.',
  ],
  [
    'a CORS max age under -1',
    (p) => (p.cors = { enabled: true, allowOrigin: ['*'], allowMethods: ['GET'], maxAge: -2 }),
    'proxy.cors.maxAge',
    undefined,
  ],
  [
    'failover max attempts of 0',
    (p) => (p.failover = { maxAttempts: 0 }),
    'proxy.failover.maxAttempts',
    undefined,
  ],
  [
    'a failover timeout of 0',
    (p) => (p.failover = { maxAttempts: 2, retryTimeout: 0 }),
    'proxy.failover.retryTimeout',
    undefined,
  ],
  [
    'an unknown load balancing type',
    (p) => (p.groups[0].load_balancing = { type: 'LEAST_CONN' }),
    'proxy.groups.0.load_balancing.type',
    undefined,
  ],
];

for (const dialect of await testDialects()) {
  describe(`${dialect}: proxy rules of PUT apis/{id}`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(() => t?.close());

    /** An API of the publisher with two endpoints in its default group. */
    const twoEndpoints = async () => {
      const api = await createApiAs(t, u.publisher.session);
      const { body, etag } = await getApi(t, u.publisher.session, api.id);
      const proxy = body.proxy as Proxy;
      proxy.groups[0].endpoints.push({ name: 'second', target: 'https://second.example.com', weight: 2 });
      const res = await put(u.publisher.session, api.id, etag, { proxy });
      expect(res.statusCode, res.body).toBe(200);
      return { id: api.id, etag: String(res.headers.etag), proxy: res.json().proxy as Proxy };
    };

    const put = (session: TestSession, id: string, etag: string, payload: Record<string, unknown>) =>
      call(t.app, session, { method: 'PUT', url: `/apis/${id}`, headers: { 'if-match': etag }, payload });

    for (const [what, change, field, reason] of BAD) {
      it(`refuses ${what}, naming ${field}, and stores nothing`, async () => {
        const api = await twoEndpoints();
        const proxy = structuredClone(api.proxy);
        change(proxy);

        const res = await put(u.publisher.session, api.id, api.etag, { proxy });

        expect(res.json()).toEqual(invalidFieldBody(field, reason));
        const after = await getApi(t, u.publisher.session, api.id);
        expect(after.etag).toBe(api.etag);
        expect(after.body.proxy).toEqual(api.proxy);
      });
    }

    it('stores a whole valid proxy and drops a proxy without host, a store without type', async () => {
      const tenant = await call(t.app, u.admin, {
        method: 'POST',
        url: '/configuration/tenants',
        payload: [{ name: `eu-${Date.now()}` }],
      });
      expect(tenant.statusCode, tenant.body).toBe(200);
      const tenantId = (tenant.json() as { id: string }[])[0]!.id;
      const api = await twoEndpoints();
      const proxy = structuredClone(api.proxy);
      proxy.groups[0].load_balancing = { type: 'WEIGHTED_ROUND_ROBIN' };
      proxy.groups[0].http = { maxConcurrentConnections: 10, connectTimeout: 0, keepAlive: false };
      proxy.groups[0].proxy = { enabled: true, type: 'SOCKS4', host: 'socks.local', port: 1080 };
      proxy.groups[0].ssl = {
        trustStore: { type: 'PEM', content: '-----BEGIN CERTIFICATE-----' },
        keyStore: { type: 'PEM', certContent: 'c', keyPath: '/etc/k.pem' },
      };
      proxy.groups[0].headers = { 'X-Env': 'test' };
      proxy.groups[0].endpoints[1] = {
        ...proxy.groups[0].endpoints[1],
        weight: 99,
        backup: true,
        inherit: false,
        tenants: [tenantId],
        proxy: { enabled: false, type: 'HTTP', host: 'only-host' },
        ssl: {
          trustAll: true,
          trustStore: { type: '' },
          keyStore: { type: 'JKS', path: '/k.jks', password: 'p' },
        },
      };
      proxy.groups.push({
        name: 'backup-group',
        endpoints: [{ name: 'b1', target: 'https://b.example.com' }],
      });
      proxy.cors = {
        enabled: true,
        allowOrigin: ['*', 'https://a.example.com'],
        allowMethods: ['GET'],
        maxAge: -1,
      };
      proxy.failover = { maxAttempts: 3, retryTimeout: 1, cases: ['TIMEOUT'] };

      const res = await put(u.publisher.session, api.id, api.etag, { proxy });

      expect(res.statusCode, res.body).toBe(200);
      const stored = (await getApi(t, u.publisher.session, api.id)).body.proxy as Proxy;
      expect(stored.groups[0]).toMatchObject({
        load_balancing: { type: 'WEIGHTED_ROUND_ROBIN' },
        http: { maxConcurrentConnections: 10, connectTimeout: 0, keepAlive: false, readTimeout: 10000 },
        proxy: { enabled: true, type: 'SOCKS4', host: 'socks.local', port: 1080 },
        headers: { 'X-Env': 'test' },
      });
      const second = stored.groups[0].endpoints[1];
      expect(second).toMatchObject({ weight: 99, backup: true, inherit: false, tenants: [tenantId] });
      expect(second.proxy).toBeUndefined();
      expect(second.ssl.trustStore).toBeUndefined();
      expect(second.ssl.keyStore).toMatchObject({ type: 'JKS', path: '/k.jks' });
      expect(stored.groups[1].name).toBe('backup-group');
      expect(stored.cors).toMatchObject({ enabled: true, allowOrigin: ['*', 'https://a.example.com'] });
      expect(stored.failover).toEqual({ maxAttempts: 3, retryTimeout: 1, cases: ['TIMEOUT'] });
    });

    it('takes the spec defaults of the HTTP configuration and CORS', async () => {
      const api = await twoEndpoints();
      const proxy = structuredClone(api.proxy);
      proxy.groups[0].http = {};
      proxy.cors = { enabled: false };

      const res = await put(u.publisher.session, api.id, api.etag, { proxy });

      expect(res.statusCode, res.body).toBe(200);
      const stored = res.json().proxy as Proxy;
      expect(stored.groups[0].http).toEqual({
        connectTimeout: 5000,
        readTimeout: 10000,
        idleTimeout: 60000,
        maxConcurrentConnections: 100,
        keepAlive: true,
        pipelining: false,
        useCompression: true,
        followRedirects: false,
        encodeURI: false,
      });
      expect(stored.cors).toMatchObject({ allowOrigin: ['*'], maxAge: -1, allowCredentials: false });
    });

    describe('permissions', () => {
      const memberOf = async (id: string, role: string) => {
        const user = await createUser(t.db);
        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${id}/members`,
          payload: { id: user.id, role },
        });
        expect(res.statusCode, res.body).toBe(201);
        return login(t.app, user.source_id, 'password');
      };

      it('api-definition-r reads the proxy; without api-definition-u the change is refused', async () => {
        const api = await twoEndpoints();
        const user = await memberOf(api.id, 'USER');
        const proxy = structuredClone(api.proxy);
        proxy.groups[0].endpoints[1].weight = 5;

        const read = await getApi(t, user, api.id);
        const res = await put(user, api.id, api.etag, { proxy });
        const outsider = await getApi(t, u.outsider.session, api.id);

        expect(read.body.proxy).toEqual(api.proxy);
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-definition-u'));
        expect(outsider.res.statusCode).toBe(403);
        expect((await getApi(t, u.publisher.session, api.id)).etag).toBe(api.etag);
      });

      it('an OWNER (api-definition-u) edits endpoints but not the context path: the primary owner does', async () => {
        const api = await twoEndpoints();
        const owner = await memberOf(api.id, 'OWNER');
        const endpoints = structuredClone(api.proxy);
        endpoints.groups[0].endpoints[1].weight = 7;
        const saved = await put(owner, api.id, api.etag, { proxy: endpoints });
        expect(saved.statusCode, saved.body).toBe(200);

        const moved = { ...structuredClone(endpoints), context_path: `${api.proxy.context_path}-moved` };
        const refused = await put(owner, api.id, String(saved.headers.etag), { proxy: moved });
        const accepted = await put(u.publisher.session, api.id, String(saved.headers.etag), { proxy: moved });

        expect(saved.json().proxy.groups[0].endpoints[1].weight).toBe(7);
        expect(refused.statusCode).toBe(403);
        expect(accepted.statusCode, accepted.body).toBe(200);
        expect(accepted.json().proxy.context_path).toBe(moved.context_path);
      });

      it('marks the API out of sync after a proxy change', async () => {
        const api = await twoEndpoints();
        const deploy = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/deploy`,
        });
        expect(deploy.statusCode, deploy.body).toBe(200);
        const before = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/state`,
        });
        const proxy = structuredClone(api.proxy);
        proxy.groups[0].endpoints[0].target = 'https://moved.example.com';
        const saved = await put(u.publisher.session, api.id, String(deploy.headers.etag), { proxy });
        const after = await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/state` });

        expect(saved.statusCode, saved.body).toBe(200);
        expect(before.json()).toMatchObject({ is_synchronized: true });
        expect(after.json()).toMatchObject({ is_synchronized: false });
      });
    });
  });
}
