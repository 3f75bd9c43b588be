import { beforeAll, describe, expect, it } from 'vitest';
import { findApiById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import {
  API_VERSION_TOO_LONG,
  CONTEXT_PATH_MESSAGE,
  ENDPOINT_INVALID,
  ENDPOINT_REQUIRED,
} from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { call, errorBody } from '../../test-support/index.js';
import { CONTEXT_PATH_TAKEN } from './apis.errors.js';
import type { ApiUsers } from './test-support/index.js';
import { countRows, createApiAs, uniquePath } from './test-support/index.js';
import { badField, useApiCallsApp } from './test-support/api-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API calls`, () => {
    let t: TestApp, u: ApiUsers;

    useApiCallsApp(dialect, (app) => ({ t, u } = app));

    it('documents every API call in the OpenAPI document', async () => {
      const res = await call(t.app, undefined, { method: 'GET', url: '/openapi.json' });

      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json().paths)).toEqual(
        expect.arrayContaining([
          '/apis',
          '/apis/_search',
          '/apis/verify',
          '/apis/import',
          '/apis/import/swagger',
          '/apis/{api}',
          '/apis/{api}/deploy',
          '/apis/{api}/state',
          '/apis/{api}/rollback',
          '/apis/{api}/events',
          '/apis/{api}/quality',
          '/apis/{api}/picture',
          '/apis/{api}/export',
          '/apis/{api}/import',
          '/apis/{api}/members',
          '/apis/{api}/members/transfer_ownership',
          '/apis/{api}/groups',
          '/apis/{api}/metadata',
          '/apis/{api}/metadata/{key}',
          '/portal/apis/_search',
        ]),
      );
    });

    describe('POST apis', () => {
      const valid = () => ({
        name: 'Weather',
        version: '2.0',
        description: 'Forecasts',
        context_path: uniquePath('weather'),
        endpoint: 'https://weather.example.com/v2',
      });

      it('creates the API and answers it with its id, its owner and its entity tag in the header', async () => {
        const payload = valid();
        const res = await call(t.app, u.publisher.session, { method: 'POST', url: '/apis', payload });

        expect(res.statusCode).toBe(201);
        const body = res.json();
        expect(body).toMatchObject({
          name: 'Weather',
          version: '2.0',
          description: 'Forecasts',
          context_path: payload.context_path,
          state: 'STOPPED',
          visibility: 'PRIVATE',
          owner: { id: u.publisher.user.id, displayName: `Pat ${u.publisher.user.source_id}` },
          proxy: {
            context_path: payload.context_path,
            groups: [{ name: 'default-group', endpoints: [{ name: 'default', target: payload.endpoint }] }],
          },
        });
        expect(typeof body.id).toBe('string');
        expect(res.headers.etag).toMatch(/^".+"$/);
        expect(body).not.toHaveProperty('etag');
        expect(await findApiById(t.db, body.id)).toBeDefined();
      });

      const refusals: [string, Record<string, unknown>, ReturnType<typeof badField>][] = [
        ['a missing name', { name: undefined }, badField('name', 'Name is required.')],
        [
          'a version over 32 characters',
          { version: 'v'.repeat(33) },
          badField('version', API_VERSION_TOO_LONG),
        ],
        [
          'a missing description',
          { description: undefined },
          badField('description', 'Description is required.'),
        ],
        [
          'a missing context path',
          { context_path: undefined },
          badField('context_path', 'Context path is required.'),
        ],
        [
          'a context path of 2 characters',
          { context_path: '/a' },
          badField('context_path', 'Context path has to be more than 3 characters long'),
        ],
        [
          'a context path with a space',
          { context_path: '/my api' },
          badField('context_path', CONTEXT_PATH_MESSAGE),
        ],
        [
          'a context path without leading slash',
          { context_path: 'myapi' },
          badField('context_path', CONTEXT_PATH_MESSAGE),
        ],
        ['a missing endpoint', { endpoint: undefined }, badField('endpoint', ENDPOINT_REQUIRED)],
        ['an endpoint that is no URL', { endpoint: 'backend:8080' }, badField('endpoint', ENDPOINT_INVALID)],
        ['an ftp endpoint', { endpoint: 'ftp://files.example.com' }, badField('endpoint', ENDPOINT_INVALID)],
      ];
      for (const [what, change, expected] of refusals) {
        it(`refuses ${what} (400 naming the field) and stores nothing`, async () => {
          const before = await countRows(t.db, 'apis');

          const res = await call(t.app, u.publisher.session, {
            method: 'POST',
            url: '/apis',
            payload: { ...valid(), ...change },
          });

          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(expected);
          expect(await countRows(t.db, 'apis')).toBe(before);
        });
      }

      it('refuses a context path that another API covers', async () => {
        const taken = await createApiAs(t, u.publisher.session);
        const before = await countRows(t.db, 'apis');

        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: '/apis',
          payload: { ...valid(), context_path: `${taken.body.context_path}/v2` },
        });

        expect(res.json()).toMatchObject({
          http_status: 400,
          message: CONTEXT_PATH_TAKEN(`${taken.body.context_path}/v2`),
        });
        expect(await countRows(t.db, 'apis')).toBe(before);
      });

      it('refuses a user without management-api-c (403) and an anonymous caller (401)', async () => {
        const before = await countRows(t.db, 'apis');

        const forbidden = await call(t.app, u.outsider.session, {
          method: 'POST',
          url: '/apis',
          payload: valid(),
        });
        const anonymous = await call(t.app, undefined, { method: 'POST', url: '/apis', payload: valid() });

        expect(forbidden.json()).toEqual(errorBody(403, 'You do not have the permission management-api-c'));
        expect(anonymous.statusCode).toBe(401);
        expect(await countRows(t.db, 'apis')).toBe(before);
      });
    });

    describe('POST apis/verify', () => {
      it('accepts a free context path', async () => {
        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: '/apis/verify',
          payload: { context_path: uniquePath('free') },
        });

        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ available: true });
      });

      it('refuses a taken path, a parent of one and a sub-path of one with a message', async () => {
        const api = await createApiAs(t, u.publisher.session, {
          context_path: uniquePath('verify') + '/inner',
        });
        const path = api.body.context_path as string;
        const parent = path.replace(/\/inner$/, '');

        for (const candidate of [path, parent, `${path}/deeper`]) {
          const res = await call(t.app, u.publisher.session, {
            method: 'POST',
            url: '/apis/verify',
            payload: { context_path: candidate },
          });
          expect(res.json()).toEqual({
            http_status: 400,
            message: CONTEXT_PATH_TAKEN(candidate),
            field: 'context_path',
          });
        }
      });

      it('refuses a badly formed context path naming the field, and an anonymous caller', async () => {
        const bad = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: '/apis/verify',
          payload: { context_path: '/a b' },
        });
        const anonymous = await call(t.app, undefined, {
          method: 'POST',
          url: '/apis/verify',
          payload: { context_path: '/abc' },
        });

        expect(bad.json()).toEqual(badField('context_path', CONTEXT_PATH_MESSAGE));
        expect(anonymous.statusCode).toBe(401);
      });
    });

    describe('GET apis and POST apis/_search', () => {
      let names: { privateApi: string; publicApi: string };

      beforeAll(async () => {
        const tag = `zz${Date.now().toString(36)}`;
        await createApiAs(t, u.publisher.session, { name: `${tag} private` });
        const publicApi = await createApiAs(t, u.publisher.session, { name: `${tag} public` });
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${publicApi.id}`,
          payload: { visibility: 'PUBLIC', views: ['travel'] },
        });
        names = { privateApi: `${tag} private`, publicApi: `${tag} public` };
      });

      const listNames = async (
        session: typeof u.admin | undefined,
        url: string,
        method: 'GET' | 'POST' = 'GET',
      ) => {
        const res = await call(t.app, session, { method, url });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ name: string; manageable: boolean }[]>();
      };

      it('lists for each caller the APIs it may see, flagged manageable when it holds a role on them', async () => {
        const tag = names.publicApi.split(' ')[0]!;
        const forOwner = (await listNames(u.publisher.session, '/apis')).filter((a) =>
          a.name.startsWith(tag),
        );
        const forOutsider = (await listNames(u.outsider.session, '/apis')).filter((a) =>
          a.name.startsWith(tag),
        );
        const forAnonymous = (await listNames(undefined, '/apis')).filter((a) => a.name.startsWith(tag));

        expect(forOwner.map((a) => [a.name, a.manageable])).toEqual([
          [names.privateApi, true],
          [names.publicApi, true],
        ]);
        expect(forOutsider.map((a) => [a.name, a.manageable])).toEqual([[names.publicApi, false]]);
        expect(forAnonymous.map((a) => a.name)).toEqual([names.publicApi]);
      });

      it('lists the APIs of a view', async () => {
        const inView = await listNames(u.admin, '/apis?view=travel');

        expect(inView.map((a) => a.name)).toEqual([names.publicApi]);
      });

      it('searches the words of the query among the visible APIs', async () => {
        const tag = names.publicApi.split(' ')[0]!;
        const found = await listNames(
          u.outsider.session,
          `/apis/_search?q=${encodeURIComponent(`${tag} PUB`)}`,
          'POST',
        );
        const nothing = await listNames(u.outsider.session, `/apis/_search?q=${tag}%20private`, 'POST');
        const portal = await listNames(undefined, `/portal/apis/_search?q=${tag}`, 'POST');

        expect(found.map((a) => a.name)).toEqual([names.publicApi]);
        expect(nothing).toEqual([]);
        expect(portal.map((a) => a.name)).toEqual([names.publicApi]);
      });

      it('refuses an unknown sort order and a query longer than 200 characters, naming the field', async () => {
        const order = await call(t.app, u.admin, { method: 'GET', url: '/apis?order=owner' });
        const query = await call(t.app, u.admin, {
          method: 'POST',
          url: `/apis/_search?q=${'x'.repeat(201)}`,
        });

        expect(order.statusCode).toBe(400);
        expect(order.json().field).toBe('order');
        expect(query.statusCode).toBe(400);
        expect(query.json().field).toBe('q');
      });
    });
  });
}
