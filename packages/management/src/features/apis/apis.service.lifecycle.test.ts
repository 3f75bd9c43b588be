import { describe, expect, it } from 'vitest';
import type { UserRow } from '@portico/storage';
import { findApiById, findApiContextPaths, findEventsOfApi } from '@portico/storage';
import { findMembershipsOfReference, insertMetadata } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { createApplication, createPlan, createSubscription } from '../../test-support/index.js';
import type { ApiServices } from './apis.routes.js';
import { API_ACTIVE_PLANS, API_ACTIVE_SUBSCRIPTIONS, API_RUNNING } from './apis.errors.js';
import { API_ALREADY_STARTED, API_ALREADY_STOPPED } from './apis.errors.js';
import { apiEtag } from './apis.mapper.js';
import { insertApiPage } from './test-support/index.js';
import type { NewApi } from './test-support/api-service.js';
import { refusal, useApiServiceApp } from './test-support/api-service.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API service rules`, () => {
    let t: TestApp, s: ApiServices, owner: UserRow, newApi: NewApi;

    useApiServiceApp(dialect, (suite) => ({ t, s, owner, newApi } = suite));

    describe('lifecycle', () => {
      it('starts a stopped API and stops a started one, writing START_API and STOP_API events', async () => {
        const api = await newApi();

        const started = await s.lifecycle.changeState(owner, api.id, 'START');
        const stopped = await s.lifecycle.changeState(owner, api.id, 'STOP');

        expect(started.state).toBe('STARTED');
        expect(stopped.state).toBe('STOPPED');
        expect(apiEtag(started)).not.toBe(apiEtag(api));
        const events = await findEventsOfApi(t.db, api.id, undefined);
        expect(events.map((e) => e.type)).toEqual(['STOP_API', 'START_API']);
      });

      it('refuses to start a started API and to stop a stopped one', async () => {
        const api = await newApi();

        expect(await refusal(s.lifecycle.changeState(owner, api.id, 'STOP'))).toEqual({
          status: 400,
          message: API_ALREADY_STOPPED,
        });
        await s.lifecycle.changeState(owner, api.id, 'START');
        expect(await refusal(s.lifecycle.changeState(owner, api.id, 'START'))).toEqual({
          status: 400,
          message: API_ALREADY_STARTED,
        });
      });

      it('tells the gateways of this process once the change is committed', async () => {
        const api = await newApi();
        const heard: string[] = [];
        const stop = t.ctx.bus.subscribe((m) => heard.push(`${m.id}:${m.apiId}`));
        try {
          await s.lifecycle.changeState(owner, api.id, 'START');
          await s.lifecycle.deploy(owner, api.id);
        } finally {
          stop();
        }
        expect(heard).toEqual([`START_API:${api.id}`, `PUBLISH_API:${api.id}`]);
      });
    });

    describe('deployment and synchronization', () => {
      it('is out of sync before the first deployment and in sync right after it', async () => {
        const api = await newApi();

        expect(await s.lifecycle.isSynchronized(api.id)).toBe(false);
        const deployed = await s.lifecycle.deploy(owner, api.id);

        expect(deployed.deployed_at).not.toBeNull();
        expect(await s.lifecycle.isSynchronized(api.id)).toBe(true);
      });

      it('deploys the published and deprecated plans only, as DeployedPlan', async () => {
        const api = await newApi();
        await createPlan(t.db, api.id, {
          id: `${api.id}-p1`,
          status: 'PUBLISHED',
          security: 'api_key',
          order: 1,
        });
        await createPlan(t.db, api.id, {
          id: `${api.id}-p2`,
          status: 'DEPRECATED',
          security: 'KEY_LESS',
          order: 2,
        });
        await createPlan(t.db, api.id, { id: `${api.id}-p3`, status: 'STAGING' });
        await createPlan(t.db, api.id, { id: `${api.id}-p4`, status: 'CLOSED' });

        await s.lifecycle.deploy(owner, api.id);

        const [event] = await findEventsOfApi(t.db, api.id, ['PUBLISH_API']);
        const payload = JSON.parse(event!.payload!);
        expect(payload).toMatchObject({
          id: api.id,
          name: 'Orders',
          state: 'STOPPED',
          visibility: 'PRIVATE',
        });
        expect(payload.definition.proxy.context_path).toBe(api.context_path);
        expect(payload.plans.map((p: { id: string; security: string }) => [p.id, p.security])).toEqual([
          [`${api.id}-p1`, 'API_KEY'],
          [`${api.id}-p2`, 'KEY_LESS'],
        ]);
      });

      it('is out of sync after a change of the API or of its plans, not after a start', async () => {
        const api = await newApi();
        await s.lifecycle.deploy(owner, api.id);

        await s.lifecycle.changeState(owner, api.id, 'START');
        expect(await s.lifecycle.isSynchronized(api.id)).toBe(true);

        await s.apis.update(owner, api.id, { description: 'new words' });
        expect(await s.lifecycle.isSynchronized(api.id)).toBe(false);

        await s.lifecycle.deploy(owner, api.id);
        expect(await s.lifecycle.isSynchronized(api.id)).toBe(true);

        await createPlan(t.db, api.id, { status: 'PUBLISHED' });
        expect(await s.lifecycle.isSynchronized(api.id)).toBe(false);
      });

      it('is not put out of sync by labels or the picture, which the gateway does not carry', async () => {
        const api = await newApi();
        await s.lifecycle.deploy(owner, api.id);

        await s.apis.update(owner, api.id, { labels: ['x'] });

        expect(await s.lifecycle.isSynchronized(api.id)).toBe(true);
      });
    });

    describe('rollback', () => {
      it('restores the definition, description and visibility of an earlier deployment, then is out of sync', async () => {
        const api = await newApi({ description: 'first words' });
        await s.lifecycle.deploy(owner, api.id);
        const [first] = await findEventsOfApi(t.db, api.id, ['PUBLISH_API']);
        const proxy = JSON.parse(api.definition).proxy;
        proxy.groups[0].endpoints[0].target = 'https://elsewhere.example.com';
        await s.apis.update(owner, api.id, { description: 'second words', visibility: 'PUBLIC', proxy });
        await s.lifecycle.deploy(owner, api.id);

        const payload = JSON.parse(first!.payload!);
        const restored = await s.lifecycle.rollback(owner, api.id, {
          definition: { ...payload.definition, id: api.id },
          description: payload.description,
          visibility: payload.visibility,
        });

        expect(restored).toMatchObject({ id: api.id, description: 'first words', visibility: 'PRIVATE' });
        expect(JSON.parse(restored.definition).proxy.groups[0].endpoints[0].target).toBe(
          'https://orders.example.com',
        );
        expect(await s.lifecycle.isSynchronized(api.id)).toBe(false);
        const audits = await t.db
          .selectFrom('audits')
          .select('event')
          .where('reference_id', '=', api.id)
          .where('event', '=', 'API_ROLLBACKED')
          .execute();
        expect(audits).toHaveLength(1);
      });
    });

    describe('deletion', () => {
      it('refuses to delete a started API', async () => {
        const api = await newApi();
        await s.lifecycle.changeState(owner, api.id, 'START');

        expect(await refusal(s.apis.delete(owner, api.id))).toEqual({ status: 400, message: API_RUNNING });
        expect(await findApiById(t.db, api.id)).toBeDefined();
      });

      it('refuses to delete an API with a published or deprecated plan', async () => {
        for (const status of ['PUBLISHED', 'DEPRECATED']) {
          const api = await newApi();
          await createPlan(t.db, api.id, { status });

          expect(await refusal(s.apis.delete(owner, api.id))).toEqual({
            status: 400,
            message: API_ACTIVE_PLANS,
          });
        }
      });

      it('refuses to delete an API with an accepted, pending or paused subscription', async () => {
        const application = await createApplication(t.db);
        for (const status of ['ACCEPTED', 'PENDING', 'PAUSED']) {
          const api = await newApi();
          const plan = await createPlan(t.db, api.id, { status: 'CLOSED' });
          await createSubscription(t.db, plan, application, { status });

          expect(await refusal(s.apis.delete(owner, api.id))).toEqual({
            status: 400,
            message: API_ACTIVE_SUBSCRIPTIONS,
          });
        }
      });

      it('deletes a stopped API with its closed plans, pages, metadata, members and entrypoints', async () => {
        const api = await newApi();
        const application = await createApplication(t.db);
        const plan = await createPlan(t.db, api.id, { status: 'CLOSED' });
        await createSubscription(t.db, plan, application, { status: 'CLOSED' });
        await insertApiPage(t.db, api.id, { name: 'Doc', type: 'MARKDOWN' });
        await insertMetadata(t.db, {
          reference_type: 'API',
          reference_id: api.id,
          key: 'k',
          name: 'K',
          format: 'STRING',
          value: 'v',
          created_at: 1,
          updated_at: 1,
        });

        await s.apis.delete(owner, api.id);

        expect(await findApiById(t.db, api.id)).toBeUndefined();
        expect(await t.db.selectFrom('plans').where('api_id', '=', api.id).selectAll().execute()).toEqual([]);
        expect(
          await t.db.selectFrom('pages').where('reference_id', '=', api.id).selectAll().execute(),
        ).toEqual([]);
        expect(
          await t.db.selectFrom('metadata').where('reference_id', '=', api.id).selectAll().execute(),
        ).toEqual([]);
        expect(await findMembershipsOfReference(t.db, 'API', api.id)).toEqual([]);
        expect(await findApiContextPaths(t.db, api.id)).toEqual([]);
        await expect(s.apis.verifyContextPath(api.context_path)).resolves.toBeUndefined();
      });

      it('tells the gateways to drop a deleted API that was deployed', async () => {
        const api = await newApi();
        await s.lifecycle.deploy(owner, api.id);

        await s.apis.delete(owner, api.id);

        const events = await findEventsOfApi(t.db, api.id, undefined);
        expect(events[0]?.type).toBe('UNPUBLISH_API');
      });
    });
  });
}
