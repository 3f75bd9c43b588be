import { describe, expect, it } from 'vitest';
import { findApiById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { call, createPlan, errorBody, grantRoleOn } from '../../test-support/index.js';
import { API_RUNNING } from './apis.errors.js';
import type { ApiUsers } from './test-support/index.js';
import { createApiAs } from './test-support/index.js';
import { PNG, PNG_URL, useApiCallsApp } from './test-support/api-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API calls`, () => {
    let t: TestApp, u: ApiUsers;

    useApiCallsApp(dialect, (app) => ({ t, u } = app));

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
