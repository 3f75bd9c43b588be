import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import { CONTEXT_PATH_MESSAGE, CONTEXT_PATH_SEGMENTS, CONTEXT_PATH_TOO_LONG } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { call, invalidFieldBody, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, countRows, createApiAs, getApi, uniquePath } from './test-support/index.js';

/** Bad context paths: where the gateway serves an API must be a plain path. */
const BAD_PATHS: [string, string][] = [
  ['/a/../b', CONTEXT_PATH_SEGMENTS],
  ['/api/..', CONTEXT_PATH_SEGMENTS],
  ['/./api', CONTEXT_PATH_SEGMENTS],
  ['/api//v1', CONTEXT_PATH_SEGMENTS],
  ['//api', CONTEXT_PATH_SEGMENTS],
  [`/${'a'.repeat(256)}`, CONTEXT_PATH_TOO_LONG],
  ['/api%2f..', CONTEXT_PATH_MESSAGE],
  ['/api\\..', CONTEXT_PATH_MESSAGE],
];

for (const dialect of await testDialects()) {
  describe(`${dialect}: API context paths`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(() => t?.close());

    const newApi = (fields: Record<string, unknown>) => ({
      name: 'Paths',
      version: '1',
      description: 'Context path rules',
      endpoint: 'https://backend.example.com',
      ...fields,
    });

    describe('POST apis', () => {
      it('takes the context path as contextPath too, as Gravitee 1.x clients send it', async () => {
        const path = uniquePath('camel');
        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: '/apis',
          payload: newApi({ contextPath: path }),
        });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({ context_path: path, proxy: { context_path: path } });
      });

      it('refuses a missing context path, in either spelling, naming context_path', async () => {
        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: '/apis',
          payload: newApi({}),
        });
        expect(res.json()).toEqual(invalidFieldBody('context_path', 'Context path is required.'));
      });

      it.each(BAD_PATHS)(
        'refuses %s with a 400 naming the field, in either spelling',
        async (path, reason) => {
          const before = await countRows(t.db, 'apis');
          for (const field of ['context_path', 'contextPath']) {
            const res = await call(t.app, u.publisher.session, {
              method: 'POST',
              url: '/apis',
              payload: newApi({ [field]: path }),
            });
            expect(res.statusCode, res.body).toBe(400);
            expect(res.json()).toEqual(invalidFieldBody(field, reason));
          }
          expect(await countRows(t.db, 'apis')).toBe(before);
        },
      );

      it('takes a context path with a trailing slash, dots inside segments and 256 characters', async () => {
        for (const path of [`${uniquePath('trail')}/`, `${uniquePath('v1.2')}/x.y`, `/${'b'.repeat(255)}`]) {
          const res = await call(t.app, u.publisher.session, {
            method: 'POST',
            url: '/apis',
            payload: newApi({ context_path: path }),
          });
          expect(res.statusCode, `${path}: ${res.body}`).toBe(201);
        }
      });
    });

    it.each(BAD_PATHS)('POST apis/verify refuses %s naming the field', async (path, reason) => {
      const res = await call(t.app, u.publisher.session, {
        method: 'POST',
        url: '/apis/verify',
        payload: { context_path: path },
      });
      expect(res.json()).toEqual(invalidFieldBody('context_path', reason));
    });

    it('PUT apis/{id} refuses a bad context path or virtual host path and keeps the old one', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const { body } = await getApi(t, u.publisher.session, api.id);
      const proxy = body.proxy as Record<string, unknown>;
      const put = (changed: Record<string, unknown>) =>
        call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { proxy: { ...proxy, ...changed } },
        });

      const dots = await put({ context_path: '/a/../b' });
      expect(dots.json()).toEqual(invalidFieldBody('proxy.context_path', CONTEXT_PATH_SEGMENTS));
      const vhost = await put({ virtual_hosts: [{ host: 'api.example.com', path: '/x//y' }] });
      expect(vhost.json()).toEqual(invalidFieldBody('proxy.virtual_hosts.0.path', CONTEXT_PATH_SEGMENTS));
      expect((await getApi(t, u.publisher.session, api.id)).body.context_path).toBe(body.context_path);
    });

    it('POST apis/import refuses a definition whose context path climbs, and stores nothing', async () => {
      const before = await countRows(t.db, 'apis');
      const res = await call(t.app, u.publisher.session, {
        method: 'POST',
        url: '/apis/import',
        payload: {
          name: 'Climber',
          version: '1',
          proxy: { context_path: '/a/../b', groups: [{ name: 'g', endpoints: [] }] },
        },
      });
      expect(res.json()).toEqual(invalidFieldBody('proxy.context_path', CONTEXT_PATH_SEGMENTS));
      expect(await countRows(t.db, 'apis')).toBe(before);
    });
  });
}
