import { describe, expect, it } from 'vitest';
import { findApiById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { API_VERSION_TOO_LONG } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { call, errorBody, grantRoleOn } from '../../test-support/index.js';
import { API_ALREADY_STARTED } from './apis.errors.js';
import type { ApiUsers } from './test-support/index.js';
import { createApiAs, getApi } from './test-support/index.js';
import { PNG_URL, badField, useApiCallsApp } from './test-support/api-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API calls`, () => {
    let t: TestApp, u: ApiUsers;

    useApiCallsApp(dialect, (app) => ({ t, u } = app));

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
  });
}
