import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertIdentityProvider } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from './test-support/index.js';
import { call, startTestApp } from './test-support/index.js';

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: management app`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: { version: '9.8.7' } });
    });
    afterAll(() => t?.close());

    describe('GET health', () => {
      it('answers 200 UP with the database dialect, without a session', async () => {
        const res = await call(t.app, undefined, { method: 'GET', url: '/health' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ status: 'UP', database: { status: 'UP', dialect } });
      });
    });

    describe('GET openapi.json', () => {
      let doc: OpenApiDocument;
      beforeAll(async () => {
        const res = await call(t.app, undefined, { method: 'GET', url: '/openapi.json' });
        expect(res.statusCode).toBe(200);
        doc = res.json<OpenApiDocument>();
      });

      it('is an OpenAPI 3 document of the running version, served under /management', () => {
        expect(doc.openapi).toMatch(/^3\./);
        expect(doc.info).toMatchObject({ title: 'Portico management API', version: '9.8.7' });
        expect(doc.servers).toEqual([{ url: '/management' }]);
      });

      it('lists the routes relative to the server URL, starting with user/login', () => {
        expect(doc.paths['/user/login']?.post).toMatchObject({ tags: ['User'] });
        for (const [path, method] of [
          ['/user', 'put'],
          ['/portal', 'post'],
          ['/audit', 'get'],
          ['/users/registration/finalize', 'post'],
          ['/apis/{api}/members/permissions', 'get'],
        ]) {
          expect(doc.paths[path!]?.[method!], `${method} ${path}`).toBeDefined();
        }
        expect(Object.keys(doc.paths).filter((p) => p.startsWith('/management'))).toEqual([]);
        expect(doc.paths).not.toHaveProperty('/openapi.json');
      });

      it('documents query parameters from the route schemas', () => {
        const audit = doc.paths['/audit']!.get as unknown as { parameters: { name: string; in: string }[] };
        expect(audit.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
          expect.arrayContaining(['page', 'size', 'event', 'api', 'application', 'mgmt', 'from', 'to']),
        );
      });
    });

    describe('GET portal/identities', () => {
      it('lists the enabled identity providers for the sign-in page, never their client secret', async () => {
        const provider = (id: string, name: string, enabled: number) => ({
          id,
          type: 'oidc',
          name,
          description: `${name} accounts`,
          enabled,
          email_required: 1,
          configuration: JSON.stringify({
            clientId: `${id}-client`,
            clientSecret: `${id}-very-secret`,
            authorizeEndpoint: `https://${id}.example.test/authorize`,
            userLogoutEndpoint: `https://${id}.example.test/logout`,
            scopes: ['openid', 'email'],
            color: '#123456',
          }),
          group_mappings: '[]',
          role_mappings: '[]',
          user_profile_mapping: '{}',
          created_at: 0,
          updated_at: 0,
        });
        await insertIdentityProvider(t.db, provider('corp', 'Corporate SSO', 1));
        await insertIdentityProvider(t.db, provider('old', 'Old SSO', 0));

        const res = await call(t.app, undefined, { method: 'GET', url: '/portal/identities' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([
          {
            id: 'corp',
            name: 'Corporate SSO',
            description: 'Corporate SSO accounts',
            type: 'oidc',
            clientId: 'corp-client',
            authorizationEndpoint: 'https://corp.example.test/authorize',
            userLogoutEndpoint: 'https://corp.example.test/logout',
            scopes: ['openid', 'email'],
            color: '#123456',
          },
        ]);
        expect(res.body).not.toContain('very-secret');
      });
    });

    describe('CORS', () => {
      it('lets the web app of an allowed origin call with credentials', async () => {
        const res = await t.app.inject({
          method: 'OPTIONS',
          url: '/management/user',
          headers: {
            origin: 'http://localhost:8084',
            'access-control-request-method': 'PUT',
            'access-control-request-headers': 'content-type,x-xsrf-token,if-match',
          },
        });
        expect(res.statusCode).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8084');
        expect(res.headers['access-control-allow-credentials']).toBe('true');
        expect(String(res.headers['access-control-allow-headers'])).toContain('X-Xsrf-Token');
      });

      it('gives no CORS grant to another origin', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/management/portal',
          headers: { origin: 'https://evil.example.test' },
        });
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      });
    });
  });

  describe(`${dialect}: health when the database is gone`, () => {
    it('answers 503 DOWN in the error model', async () => {
      const t = await startTestApp(dialect);
      try {
        await t.storage.close();
        const res = await call(t.app, undefined, { method: 'GET', url: '/health' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ message: 'Database unavailable', http_status: 503, status: 'DOWN' });
      } finally {
        await t.close();
      }
    });
  });
}
