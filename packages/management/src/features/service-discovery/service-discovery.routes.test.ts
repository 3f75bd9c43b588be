import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUL_DISCOVERY } from '@portico/model';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  errorBody,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: service discovery providers and a group's discovery`, () => {
    let t: TestApp;
    let admin: TestSession;
    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    it('lists the Consul provider and serves its schema; an unknown provider is 404', async () => {
      const list = await call(t.app, admin, { method: 'GET', url: '/services-discovery' });
      expect(list.json()).toEqual([expect.objectContaining({ id: CONSUL_DISCOVERY })]);
      const schema = await call(t.app, admin, {
        method: 'GET',
        url: `/services-discovery/${CONSUL_DISCOVERY}/schema`,
      });
      expect(schema.json()).toMatchObject({ required: ['url', 'service'] });
      expect(Object.keys(schema.json<{ properties: object }>().properties)).toEqual(
        expect.arrayContaining(['url', 'service', 'dc', 'acl', 'trustStoreType']),
      );
      expect(
        (await call(t.app, admin, { method: 'GET', url: '/services-discovery/nope/schema' })).statusCode,
      ).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/management/services-discovery' })).statusCode).toBe(
        401,
      );
    });

    it('refuses an enabled discovery without type or with a bad configuration, naming the field; nothing stored', async () => {
      const { id } = await createApiAs(t, admin);
      const api = await call(t.app, admin, { method: 'GET', url: `/apis/${id}` });
      const proxy = api.json<{ proxy: { groups: Record<string, unknown>[] } }>().proxy;
      const save = (discovery: unknown) =>
        call(t.app, admin, {
          method: 'PUT',
          url: `/apis/${id}`,
          headers: { 'if-match': String(api.headers.etag) },
          payload: {
            proxy: { ...proxy, groups: [{ ...proxy.groups[0], services: { discovery } }] },
          },
        });
      const noType = await save({ enabled: true });
      expect(noType.statusCode).toBe(400);
      expect(noType.json()).toEqual(invalidFieldBody('proxy.groups.0.services.discovery.provider'));
      const noService = await save({
        enabled: true,
        provider: CONSUL_DISCOVERY,
        configuration: { url: 'http://consul:8500' },
      });
      expect(noService.json()).toEqual(
        invalidFieldBody('proxy.groups.0.services.discovery.configuration.service'),
      );
      const badUrl = await save({
        enabled: true,
        provider: CONSUL_DISCOVERY,
        configuration: { url: 'consul', service: 'orders' },
      });
      expect(badUrl.json()).toEqual(invalidFieldBody('proxy.groups.0.services.discovery.configuration.url'));
      const stored = await call(t.app, admin, { method: 'GET', url: `/apis/${id}` });
      expect(stored.json<{ proxy: unknown }>().proxy).toEqual(proxy);

      const good = await save({
        enabled: true,
        provider: CONSUL_DISCOVERY,
        configuration: { url: 'http://consul:8500', service: 'orders', dc: 'dc1' },
      });
      expect(good.statusCode, good.body).toBe(200);
    });

    it("needs api-discovery-c besides api-definition-u to change a group's discovery; other changes pass", async () => {
      const { id } = await createApiAs(t, admin);
      const role = await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/rolescopes/API/roles',
        payload: { name: 'proxy editor', permissions: { DEFINITION: ['R', 'U'] } },
      });
      expect(role.statusCode, role.body).toBe(201);
      await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/rolescopes/API/roles',
        payload: { name: 'discovery editor', permissions: { DEFINITION: ['R', 'U'], DISCOVERY: ['C'] } },
      });
      const editor = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, editor.user.id, 'API', id, 'PROXY_EDITOR');
      const discoverer = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, discoverer.user.id, 'API', id, 'DISCOVERY_EDITOR');

      const discovery = {
        enabled: true,
        provider: CONSUL_DISCOVERY,
        configuration: { url: 'http://consul:8500', service: 'orders' },
      };
      const save = async (session: typeof admin, change: (group: Record<string, unknown>) => object) => {
        const api = await call(t.app, session, { method: 'GET', url: `/apis/${id}` });
        const proxy = api.json<{ proxy: { groups: Record<string, unknown>[] } }>().proxy;
        return call(t.app, session, {
          method: 'PUT',
          url: `/apis/${id}`,
          headers: { 'if-match': String(api.headers.etag) },
          payload: { proxy: { ...proxy, groups: [change(proxy.groups[0]!)] } },
        });
      };
      const refused = await save(editor.session, (g) => ({ ...g, services: { discovery } }));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(errorBody(403, 'You do not have the permission api-discovery-c'));
      const stored = await call(t.app, admin, { method: 'GET', url: `/apis/${id}` });
      expect(
        stored.json<{ proxy: { groups: { services?: unknown }[] } }>().proxy.groups[0]!.services,
      ).toBeUndefined();

      const allowed = await save(discoverer.session, (g) => ({ ...g, services: { discovery } }));
      expect(allowed.statusCode, allowed.body).toBe(200);
      // Other settings of the group, discovery kept as it is: api-definition-u is enough.
      const other = await save(editor.session, (g) => ({ ...g, load_balancing: { type: 'RANDOM' } }));
      expect(other.statusCode, other.body).toBe(200);
      // Turned off, or its configuration changed: api-discovery-c again.
      const off = await save(editor.session, (g) => ({
        ...g,
        services: { discovery: { ...discovery, enabled: false } },
      }));
      expect(off.statusCode).toBe(403);
      const moved = await save(editor.session, (g) => ({
        ...g,
        services: {
          discovery: { ...discovery, configuration: { ...discovery.configuration, service: 'other' } },
        },
      }));
      expect(moved.statusCode).toBe(403);
      const kept = await call(t.app, admin, { method: 'GET', url: `/apis/${id}` });
      expect(kept.json<{ proxy: { groups: { services?: unknown }[] } }>().proxy.groups[0]!.services).toEqual({
        discovery,
      });
    });
  });
}
