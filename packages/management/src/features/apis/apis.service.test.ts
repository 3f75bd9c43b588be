import { describe, expect, it } from 'vitest';
import type { UserRow } from '@portico/storage';
import { findApiById, findApiContextPaths, findMembershipsOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { staleEtag } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { createGroup, createTag, createUser, grantRoleOn } from '../../test-support/index.js';
import type { ApiServices } from './apis.routes.js';
import { CONTEXT_PATH_OWNER_ONLY, CONTEXT_PATH_TAKEN } from './apis.errors.js';
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
import { uniquePath } from './test-support/index.js';
import type { NewApi } from './test-support/api-service.js';
import { refusal, useApiServiceApp } from './test-support/api-service.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API service rules`, () => {
    let t: TestApp, s: ApiServices, owner: UserRow, admin: UserRow, newApi: NewApi;

    useApiServiceApp(dialect, (suite) => ({ t, s, owner, admin, newApi } = suite));

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
  });
}
