import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserRow } from '@portico/storage';
import {
  findApiById,
  findApiContextPaths,
  findEventsOfApi,
  findMembershipsOfReference,
  insertMetadata,
  upsertParameter,
} from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { DomainError, staleEtag } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import {
  createApplication,
  createGroup,
  createPlan,
  createSubscription,
  createTag,
  createUser,
  grantPlatformRole,
  grantRoleOn,
  grantRoleThroughGroup,
  startTestApp,
} from '../../test-support/index.js';
import { createApiServices, type ApiServices } from './apis.routes.js';
import {
  API_ACTIVE_PLANS,
  API_ACTIVE_SUBSCRIPTIONS,
  API_ALREADY_STARTED,
  API_ALREADY_STOPPED,
  API_RUNNING,
  CONTEXT_PATH_OWNER_ONLY,
  CONTEXT_PATH_TAKEN,
} from './apis.errors.js';
import {
  ENDPOINT_NAME_TAKEN,
  PATH_ALREADY_CONFIGURED,
  PATH_MUST_START_WITH_SLASH,
  PEM_KEY_STORE,
  PROXY_FIELDS_REQUIRED,
  STORE_PASSWORD,
  STORE_PATH_OR_CONTENT,
} from './apis.definition.js';
import { apiEtag } from './apis.mapper.js';
import { insertApiPage, uniquePath } from './test-support/index.js';

/** The refusal a promise ends with: status and message. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return { status: error.httpStatus, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: API service rules`, () => {
    let t: TestApp;
    let s: ApiServices;
    let owner: UserRow;
    let admin: UserRow;

    const newApi = (fields: Partial<{ context_path: string; name: string; description: string }> = {}) =>
      s.apis.create(owner, {
        name: 'Orders',
        version: '1.0',
        description: 'Orders of the shop',
        context_path: uniquePath('orders'),
        endpoint: 'https://orders.example.com',
        ...fields,
      });

    beforeAll(async () => {
      t = await startTestApp(dialect);
      s = createApiServices({
        ctx: t.ctx,
        permissions: t.services.permissions,
        audit: t.services.audit,
        settings: t.services.settings,
      });
      owner = await createUser(t.db);
      await grantPlatformRole(t.db, owner.id, 'MANAGEMENT', 'API_PUBLISHER');
      admin = (await t.db
        .selectFrom('users')
        .selectAll()
        .where('source_id', '=', 'admin')
        .executeTakeFirst())!;
    });
    afterAll(() => t?.close());

    describe('creation', () => {
      it('creates a stopped private API with one endpoint group and makes the creator its primary owner', async () => {
        const api = await newApi({ context_path: '/shop-orders' });

        expect(api).toMatchObject({ state: 'STOPPED', visibility: 'PRIVATE', context_path: '/shop-orders' });
        const definition = JSON.parse(api.definition);
        expect(definition.proxy.groups).toEqual([
          expect.objectContaining({
            name: 'default-group',
            endpoints: [expect.objectContaining({ name: 'default', target: 'https://orders.example.com' })],
          }),
        ]);
        const members = await findMembershipsOfReference(t.db, 'API', api.id);
        expect(members.map((m) => [m.member_id, m.role_name])).toEqual([[owner.id, 'PRIMARY_OWNER']]);
        expect(await findApiContextPaths(t.db, api.id)).toEqual([
          { api_id: api.id, host: '', path: '/shop-orders' },
        ]);
      });

      it('adds the groups that take every new API', async () => {
        const group = await createGroup(t.db);
        await t.db
          .updateTable('groups')
          .set({ event_rules: JSON.stringify([{ event: 'API_CREATE' }]) })
          .where('id', '=', group.id)
          .execute();
        try {
          const api = await newApi();

          expect(JSON.parse(api.groups)).toContain(group.id);
        } finally {
          await t.db.deleteFrom('groups').where('id', '=', group.id).execute();
        }
      });

      it('audits the creation with the new API', async () => {
        const api = await newApi();

        const audits = await t.db
          .selectFrom('audits')
          .selectAll()
          .where('reference_id', '=', api.id)
          .execute();
        expect(audits.map((a) => a.event).sort()).toEqual(['API_CREATED', 'MEMBERSHIP_CREATED']);
        expect(audits.every((a) => a.user_id === owner.id)).toBe(true);
      });
    });

    describe('context path uniqueness', () => {
      it('refuses the same path, a parent path and a sub-path, with the message naming the path', async () => {
        await newApi({ context_path: '/unique/base' });

        for (const taken of ['/unique/base', '/unique/base/', '/unique', '/unique/base/deeper']) {
          expect(await refusal(s.apis.verifyContextPath(taken))).toEqual({
            status: 400,
            message: CONTEXT_PATH_TAKEN(taken.replace(/\/$/, '')),
          });
        }
        await expect(s.apis.verifyContextPath('/unique/basement')).resolves.toBeUndefined();
        await expect(s.apis.verifyContextPath('/uniquely')).resolves.toBeUndefined();
      });

      it('refuses to create an API on a taken context path, and stores nothing', async () => {
        await newApi({ context_path: '/taken-path' });
        const before = await t.db.selectFrom('apis').select('id').execute();

        expect(await refusal(newApi({ context_path: '/taken-path/v2' }))).toMatchObject({ status: 400 });

        expect(await t.db.selectFrom('apis').select('id').execute()).toHaveLength(before.length);
      });

      it('lets only one of two simultaneous creations on the same context path through', async () => {
        const path = uniquePath('race');

        const results = await Promise.allSettled([
          newApi({ context_path: path }),
          newApi({ context_path: path }),
        ]);

        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const stored = await t.db
          .selectFrom('api_context_paths')
          .selectAll()
          .where('path', '=', path)
          .execute();
        expect(stored).toHaveLength(1);
      });

      it('lets an API keep its own context path when it is saved', async () => {
        const api = await newApi({ context_path: '/keep-mine' });

        await expect(s.apis.verifyContextPath('/keep-mine', api.id)).resolves.toBeUndefined();
        await expect(s.apis.update(owner, api.id, { description: 'changed' })).resolves.toMatchObject({
          description: 'changed',
        });
      });

      it('tells virtual hosts of different hosts apart', async () => {
        const a = await newApi({ context_path: '/vhost-a' });
        const b = await newApi({ context_path: '/vhost-b' });
        const proxyOf = async (id: string) => JSON.parse((await findApiById(t.db, id))!.definition).proxy;

        await s.apis.update(owner, a.id, {
          proxy: { ...(await proxyOf(a.id)), virtual_hosts: [{ host: 'one.example.com', path: '/shared' }] },
        });
        await s.apis.update(owner, b.id, {
          proxy: { ...(await proxyOf(b.id)), virtual_hosts: [{ host: 'two.example.com', path: '/shared' }] },
        });

        expect((await findApiContextPaths(t.db, b.id)).map((e) => e.host)).toEqual(['two.example.com']);
        const clash = s.apis.update(owner, b.id, {
          proxy: {
            ...(await proxyOf(b.id)),
            virtual_hosts: [{ host: 'one.example.com', path: '/shared/x' }],
          },
        });
        expect(await refusal(clash)).toMatchObject({ status: 400, message: CONTEXT_PATH_TAKEN('/shared/x') });
      });
    });

    describe('general settings', () => {
      it('lets only the primary owner (or an administrator) change the context path', async () => {
        const api = await newApi();
        const apiOwner = await createUser(t.db);
        await grantRoleOn(t.db, apiOwner.id, 'API', api.id, 'OWNER');
        const proxy = JSON.parse(api.definition).proxy;

        expect(
          await refusal(s.apis.update(apiOwner, api.id, { proxy: { ...proxy, context_path: uniquePath() } })),
        ).toEqual({ status: 403, message: CONTEXT_PATH_OWNER_ONLY });
        await expect(s.apis.update(apiOwner, api.id, { labels: ['fine'] })).resolves.toMatchObject({
          labels: '["fine"]',
        });
        const moved = uniquePath('moved');
        await expect(
          s.apis.update(owner, api.id, { proxy: { ...proxy, context_path: moved } }),
        ).resolves.toMatchObject({ context_path: moved });
        const byAdmin = uniquePath('admin');
        await expect(
          s.apis.update(admin, api.id, { proxy: { ...proxy, context_path: byAdmin } }),
        ).resolves.toMatchObject({ context_path: byAdmin });
        expect(await findApiContextPaths(t.db, api.id)).toEqual([
          { api_id: api.id, host: '', path: byAdmin },
        ]);
      });

      it('answers 412 on a stale entity tag and changes nothing', async () => {
        const api = await newApi();
        const stale = apiEtag(api);
        await s.apis.update(owner, api.id, { description: 'first' });

        const check = (etag: string) => {
          if (etag !== stale) throw staleEtag();
        };
        expect(await refusal(s.apis.update(owner, api.id, { description: 'second' }, check))).toMatchObject({
          status: 412,
        });
        expect((await findApiById(t.db, api.id))?.description).toBe('first');
      });

      it('refuses unknown groups and sharding tags, naming the field', async () => {
        const api = await newApi();
        await createTag(t.db, 'edge');

        expect(await refusal(s.apis.update(owner, api.id, { groups: ['nope'] }))).toMatchObject({
          status: 400,
          message: "Invalid value for field 'groups': the group [nope] does not exist",
        });
        expect(await refusal(s.apis.update(owner, api.id, { tags: ['edge', 'mars'] }))).toMatchObject({
          status: 400,
          message: "Invalid value for field 'tags': the sharding tag [mars] does not exist",
        });
        await expect(s.apis.update(owner, api.id, { tags: ['edge'] })).resolves.toMatchObject({
          tags: '["edge"]',
        });
      });

      it('refuses endpoint names used twice among groups and endpoints', async () => {
        const api = await newApi();
        const proxy = JSON.parse(api.definition).proxy;
        proxy.groups[0].endpoints.push({ name: 'default-group', target: 'https://x.example.com' });

        expect(await refusal(s.apis.update(owner, api.id, { proxy }))).toMatchObject({
          status: 400,
          message: `Invalid value for field 'proxy.groups.0.endpoints.1.name': ${ENDPOINT_NAME_TAKEN}`,
        });
      });

      it('refuses policy paths without a leading slash or configured twice', async () => {
        const api = await newApi();

        expect(await refusal(s.apis.update(owner, api.id, { paths: { orders: [] } }))).toMatchObject({
          message: `Invalid value for field 'paths.orders': ${PATH_MUST_START_WITH_SLASH}`,
        });
        expect(
          await refusal(s.apis.update(owner, api.id, { paths: { '/orders/:id': [], '/orders/:key/': [] } })),
        ).toMatchObject({
          message: `Invalid value for field 'paths./orders/:key/': ${PATH_ALREADY_CONFIGURED}`,
        });
      });

      describe('HTTP configuration, CORS and what saving drops', () => {
        const proxyWith = (api: { definition: string }, change: (group: Record<string, unknown>) => void) => {
          const proxy = JSON.parse(api.definition).proxy;
          change(proxy.groups[0]);
          return proxy;
        };

        it('refuses an enabled proxy without host or port, stores without path nor content, and missing store passwords', async () => {
          const api = await newApi();
          const cases: [Record<string, unknown>, string, string][] = [
            [{ proxy: { enabled: true, type: 'HTTP', host: 'proxy.local' } }, 'proxy', PROXY_FIELDS_REQUIRED],
            [{ ssl: { trustStore: { type: 'PEM' } } }, 'ssl.trustStore', STORE_PATH_OR_CONTENT],
            [{ ssl: { trustStore: { type: 'JKS', path: '/x.jks' } } }, 'ssl.trustStore', STORE_PASSWORD],
            [{ ssl: { keyStore: { type: 'PEM', certPath: '/c.pem' } } }, 'ssl.keyStore', PEM_KEY_STORE],
            [{ headers: { 'x-a': '' } }, 'headers', 'Header names and values are required.'],
          ];
          for (const [config, field, message] of cases) {
            const proxy = proxyWith(api, (g) => Object.assign(g, config));
            expect(await refusal(s.apis.update(owner, api.id, { proxy }))).toEqual({
              status: 400,
              message: `Invalid value for field 'proxy.groups.0.${field}': ${message}`,
            });
          }
          const fine = proxyWith(api, (g) =>
            Object.assign(g, { ssl: { keyStore: { type: 'PKCS12', content: 'AAAA', password: 'secret' } } }),
          );
          await expect(s.apis.update(owner, api.id, { proxy: fine })).resolves.toBeDefined();
        });

        it('refuses an enabled CORS without allowed origins or methods', async () => {
          const api = await newApi();
          const proxy = JSON.parse(api.definition).proxy;

          expect(
            await refusal(
              s.apis.update(owner, api.id, {
                proxy: { ...proxy, cors: { enabled: true, allowOrigin: [], allowMethods: ['GET'] } },
              }),
            ),
          ).toMatchObject({
            message: "Invalid value for field 'proxy.cors.allowOrigin': Allowed origins are required.",
          });
          expect(
            await refusal(
              s.apis.update(owner, api.id, {
                proxy: { ...proxy, cors: { enabled: true, allowOrigin: ['*'], allowMethods: [] } },
              }),
            ),
          ).toMatchObject({
            message: "Invalid value for field 'proxy.cors.allowMethods': Allowed methods are required.",
          });
        });

        it('drops a disabled health check trigger, a proxy without host or port, a store without type and empty template keys', async () => {
          const api = await newApi();
          const proxy = proxyWith(api, (g) =>
            Object.assign(g, {
              proxy: { enabled: false, host: 'proxy.local' },
              ssl: { trustStore: { type: '' } },
            }),
          );

          const saved = await s.apis.update(owner, api.id, {
            proxy,
            services: {
              'health-check': { enabled: false, trigger: { rate: 5, unit: 'SECONDS' }, steps: [] },
            },
            response_templates: {
              API_KEY_MISSING: {},
              API_KEY_INVALID: { '*/*': { status: 403, headers: {}, body: '' } },
            },
          });

          const definition = JSON.parse(saved.definition);
          expect(definition.services['health-check']).toEqual({ enabled: false });
          expect(definition.proxy.groups[0]).not.toHaveProperty('proxy');
          expect(definition.proxy.groups[0].ssl).not.toHaveProperty('trustStore');
          expect(Object.keys(definition.response_templates)).toEqual(['API_KEY_INVALID']);
        });
      });

      it('refuses a picture that is not an image data URL', async () => {
        const api = await newApi();

        expect(
          await refusal(s.apis.update(owner, api.id, { picture: 'data:text/html;base64,PGI+' })),
        ).toMatchObject({
          status: 400,
        });
        expect((await findApiById(t.db, api.id))?.picture).toBeNull();
      });
    });

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

    describe('API list', () => {
      let viewer: UserRow;
      let ids: { publicApi: string; memberApi: string; groupApi: string; hiddenApi: string };

      beforeAll(async () => {
        viewer = await createUser(t.db);
        const group = await createGroup(t.db);
        const publicApi = await newApi({ name: 'list public' });
        await s.apis.update(owner, publicApi.id, { visibility: 'PUBLIC' });
        const memberApi = await newApi({ name: 'list member' });
        await grantRoleOn(t.db, viewer.id, 'API', memberApi.id, 'USER');
        const groupApi = await newApi({ name: 'list group' });
        await s.apis.update(owner, groupApi.id, { groups: [group.id] });
        await grantRoleThroughGroup(t.db, viewer.id, group.id, 'API', 'USER');
        const hiddenApi = await newApi({ name: 'list hidden' });
        ids = {
          publicApi: publicApi.id,
          memberApi: memberApi.id,
          groupApi: groupApi.id,
          hiddenApi: hiddenApi.id,
        };
      });

      const listed = async (actor: UserRow | undefined) =>
        new Map(
          (
            JSON.parse(await s.apis.list(actor, { text: 'list' }, '/')) as {
              id: string;
              manageable: boolean;
            }[]
          ).map((item) => [item.id, item.manageable] as const),
        );

      it('shows a user the PUBLIC APIs and those of which it is a member, directly or through a group', async () => {
        const seen = await listed(viewer);

        expect(seen.get(ids.publicApi)).toBe(false);
        expect(seen.get(ids.memberApi)).toBe(true);
        expect(seen.get(ids.groupApi)).toBe(true);
        expect(seen.has(ids.hiddenApi)).toBe(false);
      });

      it('shows an administrator every API, all manageable', async () => {
        const seen = await listed(admin);

        expect([...Object.values(ids)].every((id) => seen.get(id) === true)).toBe(true);
      });

      it('shows anonymous visitors the PUBLIC APIs only', async () => {
        expect([...(await listed(undefined)).keys()]).toEqual([ids.publicApi]);
      });

      it('keeps the top APIs in their order when asked for them', async () => {
        await t.db
          .insertInto('top_apis')
          .values([
            { api_id: ids.groupApi, order: 0 },
            { api_id: ids.publicApi, order: 1 },
          ])
          .execute();
        try {
          const top = JSON.parse(await s.apis.list(viewer, { top: true }, '/')) as { id: string }[];
          expect(top.map((item) => item.id)).toEqual([ids.groupApi, ids.publicApi]);
        } finally {
          await t.db.deleteFrom('top_apis').execute();
        }
      });
    });

    describe('quality score', () => {
      const weights = async (values: Record<string, number>) => {
        for (const [key, value] of Object.entries(values)) {
          await upsertParameter(t.db, `apiQualityMetrics.${key}`, String(value), 1);
        }
      };
      beforeEach(async () => {
        await t.db.deleteFrom('parameters').where('key', 'like', 'apiQualityMetrics.%').execute();
      });

      it('is 0 with no metric weighed, and reports none', async () => {
        const api = await newApi();

        expect(await s.quality.quality(api.id)).toEqual({ score: 0, metrics_passed: {} });
      });

      it('is the passed weight over the total weight of the metrics in use', async () => {
        await weights({
          descriptionWeight: 1,
          descriptionMinLength: 10,
          labelsWeight: 2,
          viewsWeight: 1,
          logoWeight: 0,
          functionalDocumentationWeight: 4,
          technicalDocumentationWeight: 2,
          healthcheckWeight: 2,
        });
        const api = await newApi({ description: 'long enough text' });
        await s.apis.update(owner, api.id, { labels: ['a'] });
        await insertApiPage(t.db, api.id, { name: 'Guide', type: 'MARKDOWN', published: true });
        await insertApiPage(t.db, api.id, { name: 'Spec', type: 'SWAGGER', published: false });

        expect(await s.quality.quality(api.id)).toEqual({
          score: 7 / 12,
          metrics_passed: {
            functional_documentation: true,
            technical_documentation: false,
            healthcheck: false,
            description: true,
            views: false,
            labels: true,
          },
        });
      });

      it('counts a health check enabled on the API and a picture set', async () => {
        await weights({ healthcheckWeight: 1, logoWeight: 1 });
        const api = await newApi();
        const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).toString('base64');
        await s.apis.update(owner, api.id, {
          picture: `data:image/png;base64,${png}`,
          services: { 'health-check': { enabled: true, trigger: { rate: 10, unit: 'SECONDS' } } },
        });

        expect(await s.quality.quality(api.id)).toEqual({
          score: 1,
          metrics_passed: { healthcheck: true, logo: true },
        });
      });
    });
  });
}
