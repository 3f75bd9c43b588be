import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findApiById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import {
  API_VERSION_TOO_LONG,
  CONTEXT_PATH_MESSAGE,
  ENDPOINT_INVALID,
  ENDPOINT_REQUIRED,
} from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { call, createPlan, errorBody, grantRoleOn, startTestApp } from '../../test-support/index.js';
import { API_ALREADY_STARTED, API_RUNNING, CONTEXT_PATH_TAKEN } from './apis.errors.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, countRows, createApiAs, getApi, uniquePath } from './test-support/index.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PNG_URL = `data:image/png;base64,${PNG.toString('base64')}`;

const badField = (field: string, message: string) => ({
  http_status: 400,
  message: `Invalid value for field '${field}': ${message}`,
  field,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: API calls`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      // The views given on an API must exist (issue 12).
      await t.db
        .insertInto('views')
        .values(['travel', 'sales'].map((id) => ({ id, name: id, created_at: 0, updated_at: 0 })))
        .execute();
    });
    afterAll(() => t?.close());

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

    describe('GET apis/{id}', () => {
      it('answers the API with its entity tag in the ETag header only', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const { res, etag, body } = await getApi(t, u.publisher.session, api.id);

        expect(res.statusCode).toBe(200);
        expect(etag).toBe(api.etag);
        expect(body).not.toHaveProperty('etag');
        expect(body).toMatchObject({
          id: api.id,
          picture_url: expect.stringContaining(`/apis/${api.id}/picture`),
        });
      });

      it('shows a PUBLIC API to anybody without its backend endpoints', async () => {
        const api = await createApiAs(t, u.publisher.session);
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { visibility: 'PUBLIC' },
        });

        const { res, body } = await getApi(t, undefined, api.id);

        expect(res.statusCode).toBe(200);
        expect(body).toMatchObject({
          id: api.id,
          manageable: false,
          proxy: { context_path: api.body.context_path },
        });
        expect(JSON.stringify(body)).not.toContain('backend.example.com');
        expect(body).not.toHaveProperty('paths');
        expect(body).not.toHaveProperty('path_mappings');
      });

      it('refuses a PRIVATE API to a user without api-definition-r (403) and to anonymous callers (401)', async () => {
        const api = await createApiAs(t, u.publisher.session);

        expect((await getApi(t, u.outsider.session, api.id)).res.json()).toEqual(
          errorBody(403, 'You do not have the permission api-definition-r'),
        );
        expect((await getApi(t, undefined, api.id)).res.statusCode).toBe(401);
      });

      it('answers 404 for an unknown API', async () => {
        const { res } = await getApi(t, u.admin, 'nope');

        expect(res.json()).toEqual(errorBody(404, 'Api [nope] can not be found.'));
      });
    });

    describe('PUT apis/{id}', () => {
      it('saves labels, views, tags, visibility and picture, and answers the new entity tag', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const { etag, body } = await getApi(t, u.publisher.session, api.id);

        const res = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          headers: { 'if-match': etag },
          payload: { ...body, labels: ['beta'], views: ['sales'], visibility: 'public', picture: PNG_URL },
        });

        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ labels: ['beta'], views: ['sales'], visibility: 'PUBLIC' });
        expect(res.headers.etag).not.toBe(etag);
        expect((await findApiById(t.db, api.id))?.picture).toBe(PNG_URL);
      });

      it('answers 412 to a stale If-Match and changes nothing', async () => {
        const api = await createApiAs(t, u.publisher.session);
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { description: 'newer' },
        });

        const res = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          headers: { 'if-match': api.etag },
          payload: { description: 'stale' },
        });

        expect(res.statusCode).toBe(412);
        expect((await findApiById(t.db, api.id))?.description).toBe('newer');
      });

      it('refuses a bad value naming the field, and stores nothing', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const before = await findApiById(t.db, api.id);

        const version = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { version: 'v'.repeat(33) },
        });
        const weight = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: {
            proxy: {
              context_path: api.body.context_path,
              groups: [{ name: 'g', endpoints: [{ name: 'e', target: 'http://x', weight: 100 }] }],
            },
          },
        });

        expect(version.json()).toEqual(badField('version', API_VERSION_TOO_LONG));
        expect(weight.statusCode).toBe(400);
        expect(weight.json().field).toBe('proxy.groups.0.endpoints.0.weight');
        expect(await findApiById(t.db, api.id)).toEqual(before);
      });

      it('validates the policies of the paths with the gateway schemas, naming the field', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const before = await findApiById(t.db, api.id);
        const res = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { paths: { '/': [{ 'rate-limit': { rate: { limit: 'many' } } }] } },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().field).toBe('paths./.0.rate-limit.rate.limit');
        const unknown = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { paths: { '/': [{ 'no-such-policy': {} }] } },
        });
        expect(unknown.statusCode).toBe(400);
        expect(await findApiById(t.db, api.id)).toEqual(before);
        const ok = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { paths: { '/': [{ methods: ['GET'], 'rate-limit': { rate: { limit: 5 } } }] } },
        });
        expect(ok.statusCode, ok.body).toBe(200);
      });

      it('refuses a user without api-definition-u, even a member who may read', async () => {
        const api = await createApiAs(t, u.publisher.session);
        await grantRoleOn(t.db, u.outsider.user.id, 'API', api.id, 'USER');

        const res = await call(t.app, u.outsider.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { description: 'mine now' },
        });

        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-definition-u'));
        expect((await findApiById(t.db, api.id))?.description).toBe('Says it back');
      });
    });

    describe('POST apis/{id}?action=START|STOP', () => {
      it('starts and stops the API with its entity tag, answering 204 with the new tag (Gravitee 1.x)', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const started = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}?action=START`,
          headers: { 'if-match': api.etag },
        });
        const stopped = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}?action=stop`,
          headers: { 'if-match': String(started.headers.etag) },
        });

        expect(started.statusCode, started.body).toBe(204);
        expect(started.body).toBe('');
        expect(stopped.statusCode, stopped.body).toBe(204);
        expect(started.headers.etag).not.toBe(api.etag);
        expect(stopped.headers.etag).not.toBe(started.headers.etag);
        const now = await getApi(t, u.publisher.session, api.id);
        expect(now.body).toMatchObject({ state: 'STOPPED' });
        expect(now.etag).toBe(stopped.headers.etag);
      });

      it('refuses a stale tag (412), a second start (400) and an unknown action (400 naming it)', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const started = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}?action=START`,
        });

        const stale = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}?action=STOP`,
          headers: { 'if-match': api.etag },
        });
        const again = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}?action=START`,
        });
        const unknown = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}?action=PAUSE`,
        });

        expect(started.statusCode).toBe(204);
        expect(stale.statusCode).toBe(412);
        expect(again.json()).toEqual(errorBody(400, API_ALREADY_STARTED));
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json().field).toBe('action');
        expect((await findApiById(t.db, api.id))?.state).toBe('STARTED');
      });

      it('refuses a user without api-definition-u', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const res = await call(t.app, u.outsider.session, {
          method: 'POST',
          url: `/apis/${api.id}?action=START`,
        });

        expect(res.statusCode).toBe(403);
        expect((await findApiById(t.db, api.id))?.state).toBe('STOPPED');
      });
    });

    describe('deploy, state, events, rollback', () => {
      it('deploys, reports the synchronization, lists the events newest first and rolls back', async () => {
        const api = await createApiAs(t, u.publisher.session, { description: 'first' });
        const state = async () =>
          (await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/state` })).json();

        expect(await state()).toEqual({ api_id: api.id, is_synchronized: false });
        const deployed = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/deploy`,
          payload: { deploymentLabel: 'first release' },
        });
        expect(deployed.json().deployed_at).toEqual(expect.any(Number));
        expect(await state()).toEqual({ api_id: api.id, is_synchronized: true });

        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { description: 'second' },
        });
        expect((await state()).is_synchronized).toBe(false);
        await call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${api.id}?action=START` });
        await call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${api.id}/deploy` });

        const events = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/events`,
        });
        const list =
          events.json<{ type: string; payload: Record<string, unknown>; user: { id: string } }[]>();
        expect(list.map((e) => e.type)).toEqual(['PUBLISH_API', 'START_API', 'PUBLISH_API']);
        expect(list[0]!.payload).toMatchObject({ description: 'second', state: 'STARTED' });
        expect(list[2]).toMatchObject({
          payload: { id: api.id, description: 'first', definition: { id: api.id } },
          user: { id: u.publisher.user.id },
          properties: { deployment_label: 'first release' },
        });
        const onlyPublish = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/events?type=PUBLISH_API`,
        });
        expect(onlyPublish.json().map((e: { type: string }) => e.type)).toEqual([
          'PUBLISH_API',
          'PUBLISH_API',
        ]);

        const { id: _id, deployed_at: _at, ...earlier } = list[2]!.payload;
        const rolledBack = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/rollback`,
          payload: earlier,
        });
        expect(rolledBack.statusCode, rolledBack.body).toBe(200);
        expect(rolledBack.json()).toMatchObject({ id: api.id, description: 'first' });
        expect((await state()).is_synchronized).toBe(false);
      });

      it('refuses an unknown event type, a rollback without definition and a too long label, naming the field', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const events = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/events?type=FOO`,
        });
        const rollback = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/rollback`,
          payload: { description: 'x' },
        });
        const deploy = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/deploy`,
          payload: { deploymentLabel: 'l'.repeat(101) },
        });

        expect(events.json().field).toBe('type');
        expect(rollback.json().field).toBe('definition');
        expect(deploy.json().field).toBe('deploymentLabel');
        expect((await findApiById(t.db, api.id))?.deployed_at).toBeNull();
      });

      it('refuses users without the permissions: api-definition-u to deploy and roll back, api-event-r for events', async () => {
        const api = await createApiAs(t, u.publisher.session);
        await grantRoleOn(t.db, u.outsider.user.id, 'API', api.id, 'USER');

        const deploy = await call(t.app, u.outsider.session, {
          method: 'POST',
          url: `/apis/${api.id}/deploy`,
        });
        const rollback = await call(t.app, u.outsider.session, {
          method: 'POST',
          url: `/apis/${api.id}/rollback`,
          payload: { definition: { name: 'x', version: '1', proxy: { context_path: '/xyz', groups: [] } } },
        });
        const events = await call(t.app, u.outsider.session, {
          method: 'GET',
          url: `/apis/${api.id}/events`,
        });
        const state = await call(t.app, u.outsider.session, { method: 'GET', url: `/apis/${api.id}/state` });

        expect(deploy.statusCode).toBe(403);
        expect(rollback.statusCode).toBe(403);
        expect(events.json()).toEqual(errorBody(403, 'You do not have the permission api-event-r'));
        expect(state.statusCode).toBe(200);
        expect((await findApiById(t.db, api.id))?.deployed_at).toBeNull();
        const stranger = await createApiAs(t, u.publisher.session);
        const hidden = await call(t.app, u.outsider.session, {
          method: 'GET',
          url: `/apis/${stranger.id}/state`,
        });
        expect(hidden.json()).toEqual(errorBody(403, 'You do not have the permission api-definition-r'));
      });
    });

    describe('DELETE apis/{id}', () => {
      it('deletes a stopped API without active plans', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const res = await call(t.app, u.publisher.session, { method: 'DELETE', url: `/apis/${api.id}` });

        expect(res.statusCode).toBe(204);
        expect(await findApiById(t.db, api.id)).toBeUndefined();
      });

      it('refuses to delete a started API and an API with a published plan', async () => {
        const started = await createApiAs(t, u.publisher.session);
        await call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${started.id}?action=START` });
        const planned = await createApiAs(t, u.publisher.session);
        await createPlan(t.db, planned.id, { status: 'PUBLISHED' });

        const a = await call(t.app, u.publisher.session, { method: 'DELETE', url: `/apis/${started.id}` });
        const b = await call(t.app, u.publisher.session, { method: 'DELETE', url: `/apis/${planned.id}` });

        expect(a.json()).toEqual(errorBody(400, API_RUNNING));
        expect(b.statusCode).toBe(400);
        expect(await findApiById(t.db, started.id)).toBeDefined();
        expect(await findApiById(t.db, planned.id)).toBeDefined();
      });

      it('refuses a user without api-definition-d', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const res = await call(t.app, u.outsider.session, { method: 'DELETE', url: `/apis/${api.id}` });

        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-definition-d'));
        expect(await findApiById(t.db, api.id)).toBeDefined();
      });
    });

    describe('GET apis/{id}/quality and GET apis/{id}/picture', () => {
      it('answers the quality score', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const res = await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/quality` });

        expect(res.json()).toEqual({ score: 0, metrics_passed: {} });
      });

      it('serves the uploaded picture, or a generated one', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const generated = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/picture`,
        });
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { picture: PNG_URL },
        });
        const uploaded = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/picture`,
        });

        expect(generated.headers['content-type']).toBe('image/svg+xml');
        expect(generated.body).toContain('>E<');
        expect(uploaded.headers['content-type']).toBe('image/png');
        expect(uploaded.rawPayload.equals(PNG)).toBe(true);
      });

      it('refuses the quality and the picture of a PRIVATE API to a user who may not read it', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const quality = await call(t.app, u.outsider.session, {
          method: 'GET',
          url: `/apis/${api.id}/quality`,
        });
        const picture = await call(t.app, u.outsider.session, {
          method: 'GET',
          url: `/apis/${api.id}/picture`,
        });

        expect(quality.statusCode).toBe(403);
        expect(picture.statusCode).toBe(403);
      });
    });
  });
}
