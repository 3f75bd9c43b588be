import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../test-support/index.js';
import { call, login, startTestApp } from '../test-support/index.js';

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
  });
}
