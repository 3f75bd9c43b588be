import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../test-support/index.js';
import { call, errorBody, login, signInNewUser, startTestApp } from '../test-support/index.js';
import { createApiAs } from '../features/apis/test-support/index.js';
import { DEFAULT_BODY_LIMIT, MAX_JSON_DEPTH } from './json-body.js';

/** The conventions of Gravitee 1.x management clients that hold on every route. */
for (const dialect of await testDialects()) {
  describe(`${dialect}: Gravitee 1.x client conventions`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    describe('trailing slashes', () => {
      it.each([
        '/instances/',
        '/users/',
        '/search/users/?q=adm',
        '/configuration/rolescopes/',
        '/apis/',
        '/applications/',
        '/audit/',
      ])('GET %s answers as without the slash', async (url) => {
        const withSlash = await call(t.app, admin, { method: 'GET', url });
        const without = await call(t.app, admin, { method: 'GET', url: url.replace(/\/(\?|$)/, '$1') });
        expect(without.statusCode, without.body).toBe(200);
        expect(withSlash.statusCode, withSlash.body).toBe(200);
        expect(withSlash.json()).toEqual(without.json());
      });

      it('POST applications/ creates an application, documented once without the slash', async () => {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/applications/',
          payload: { name: 'Slashed', description: 'Made through applications/' },
        });
        expect(res.statusCode, res.body).toBe(201);
        const doc = (await call(t.app, undefined, { method: 'GET', url: '/openapi.json' })).json<{
          paths: Record<string, unknown>;
        }>();
        expect(doc.paths).toHaveProperty('/applications');
        expect(doc.paths).not.toHaveProperty('/applications/');
      });
    });

    describe('authentication before validation', () => {
      it('answers 401 to an anonymous invalid write, before looking at the body', async () => {
        for (const [method, url] of [
          ['POST', '/apis'],
          ['PUT', '/user'],
          ['POST', '/applications'],
          ['POST', '/apis/some-api/plans'],
        ] as const) {
          const res = await call(t.app, undefined, { method, url, payload: { name: 42, unknown: true } });
          expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(401);
          expect(res.json()).toEqual(errorBody(401, 'You must be authenticated'));
        }
      });

      it('answers 403 to a signed-in caller without the permission, before a 400', async () => {
        const outsider = await signInNewUser(t.app, t.db);
        const created = await call(t.app, outsider.session, { method: 'POST', url: '/apis', payload: {} });
        expect(created.statusCode, created.body).toBe(403);
        expect(created.json()).toEqual(errorBody(403, 'You do not have the permission management-api-c'));
        const api = await createApiAs(t, admin);
        const plan = await call(t.app, outsider.session, {
          method: 'POST',
          url: `/apis/${api.id}/plans`,
          payload: { security: 'NOPE' },
        });
        expect(plan.statusCode, plan.body).toBe(403);
      });

      it('still answers 400 naming the field to a caller with the permission', async () => {
        const res = await call(t.app, admin, { method: 'POST', url: '/apis', payload: { name: 42 } });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ http_status: 400, field: expect.any(String) });
      });
    });

    describe('JSON bodies', () => {
      const nested = (depth: number) => `{"q":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
      const search = (payload: string) =>
        call(t.app, admin, {
          method: 'POST',
          url: '/apis/_search',
          headers: { 'content-type': 'application/json' },
          payload,
        });

      it('takes an empty body sent as application/json for no body', async () => {
        const api = await call(t.app, admin, {
          method: 'POST',
          url: '/apis',
          payload: {
            name: 'Empty body',
            version: '1',
            description: 'Deployed with an empty JSON body',
            context_path: `/empty-body-${Date.now().toString(36)}`,
            endpoint: 'https://backend.example.com',
          },
        });
        expect(api.statusCode, api.body).toBe(201);
        const id = api.json<{ id: string }>().id;
        for (const payload of ['', '  \n']) {
          const res = await call(t.app, admin, {
            method: 'POST',
            url: `/apis/${id}/deploy`,
            headers: { 'content-type': 'application/json' },
            payload,
          });
          expect(res.statusCode, res.body).toBe(200);
        }
        const removed = await call(t.app, admin, {
          method: 'DELETE',
          url: `/apis/${id}`,
          headers: { 'content-type': 'application/json' },
          payload: '',
        });
        expect(removed.statusCode, removed.body).not.toBe(400);
      });

      it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels with a 400 naming the limit`, async () => {
        expect((await search(nested(MAX_JSON_DEPTH))).statusCode).toBe(200);
        const res = await search(nested(MAX_JSON_DEPTH + 1));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(
          errorBody(
            400,
            `The JSON body nests objects and arrays deeper than the limit of ${MAX_JSON_DEPTH} levels`,
          ),
        );
        const deepInString = await search(JSON.stringify({ q: '['.repeat(1000) + '"{' }));
        expect(deepInString.statusCode, deepInString.body).toBe(200);
      });

      it('still refuses bad JSON and prototype poisoning with a 400', async () => {
        expect((await search('{"q":')).json()).toEqual(errorBody(400, 'Invalid JSON body'));
        expect((await search('{"__proto__":{"admin":true}}')).statusCode).toBe(400);
      });

      it('refuses a body over 2 MB with a 413 naming the limit', async () => {
        const res = await search(JSON.stringify({ q: 'x'.repeat(DEFAULT_BODY_LIMIT) }));
        expect(res.statusCode).toBe(413);
        expect(res.json()).toEqual(errorBody(413, 'The request body is larger than the limit of 2 MB'));
      });
    });
  });
}
