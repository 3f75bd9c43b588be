import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import { createApiAs, getApi } from './test-support/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit the definition as JSON */

/**
 * The rules behind the proxy screens of console-apis.md 2.5 enforced by `PUT apis/{id}`: CORS origins
 * (an origin or a valid regular expression), sharding tags the saver may use, response templates (their
 * form rules, api-response_templates-c/u/d, no templates deletes the key) and the stale entity tag.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: proxy settings of PUT apis/{id}`, () => {
    let t: TestApp;
    let admin: TestSession;
    let stamp = 0;
    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(() => t?.close());

    const put = (session: TestSession, id: string, etag: string, payload: Record<string, unknown>) =>
      call(t.app, session, { method: 'PUT', url: `/apis/${id}`, headers: { 'if-match': etag }, payload });
    /** Saves a change of the stored API as `session`, with the current entity tag. */
    const change = async (
      session: TestSession,
      id: string,
      payload: (api: any) => Record<string, unknown>,
    ) => {
      const { body, etag } = await getApi(t, admin, id);
      return put(session, id, etag, payload(body));
    };
    /** A user holding an API role made of `permissions` on the API. */
    const holder = async (id: string, permissions: Record<string, string[]>) => {
      const name = `proxy role ${dialect} ${++stamp}`;
      const role = await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/rolescopes/API/roles',
        payload: { name, permissions: { DEFINITION: ['R', 'U'], ...permissions } },
      });
      expect(role.statusCode, role.body).toBe(201);
      const user = await signInNewUser(t.app, t.db);
      await grantRoleOn(t.db, user.user.id, 'API', id, role.json<{ name: string }>().name);
      return user;
    };

    it('refuses an allowed origin that is neither an origin nor a valid regular expression', async () => {
      const { id } = await createApiAs(t, admin);
      const cors = (allowOrigin: string[]) => (api: any) => ({
        proxy: { ...api.proxy, cors: { enabled: true, allowOrigin, allowMethods: ['GET'] } },
      });
      const before = await getApi(t, admin, id);

      const badRegex = await change(admin, id, cors(['https://ok.example.com', 'https://a.example.com/(x']));
      const notOrigin = await change(admin, id, cors(['not an origin']));

      expect(badRegex.json()).toEqual(invalidFieldBody('proxy.cors.allowOrigin.1', /not a valid regular/));
      expect(notOrigin.json()).toEqual(invalidFieldBody('proxy.cors.allowOrigin.0', /is not allowed/));
      expect((await getApi(t, admin, id)).etag).toBe(before.etag);
      const good = await change(
        admin,
        id,
        cors(['*', 'null', 'https://a.example.com:8443', 'https://.*\\.b\\.io']),
      );
      expect(good.statusCode, good.body).toBe(200);
      expect(good.json().proxy.cors.allowOrigin).toHaveLength(4);
    });

    it('answers 412 to a save with a stale entity tag, storing nothing', async () => {
      const { id } = await createApiAs(t, admin);
      const { body, etag } = (await getApi(t, admin, id)) as { body: any; etag: string };
      const first = await put(admin, id, etag, { proxy: { ...body.proxy, failover: { maxAttempts: 2 } } });
      expect(first.statusCode, first.body).toBe(200);

      const stale = await put(admin, id, etag, { proxy: { ...body.proxy, failover: { maxAttempts: 5 } } });

      expect(stale.statusCode).toBe(412);
      expect(((await getApi(t, admin, id)).body as any).proxy.failover.maxAttempts).toBe(2);
    });

    it('lets a user add or remove only the sharding tags open to one of the groups of the user', async () => {
      const group = await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/groups',
        payload: { name: `eu team ${dialect}` },
      });
      expect(group.statusCode, group.body).toBe(201);
      const groupId = group.json<{ id: string }>().id;
      const tag = async (name: string, restricted: string[]) => {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/tags',
          payload: { name: `${name} ${dialect}`, restricted_groups: restricted },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ id: string }>().id;
      };
      const open = await tag('open', []);
      const restricted = await tag('eu only', [groupId]);
      const { id } = await createApiAs(t, admin);
      const editor = await holder(id, {});

      const refused = await change(editor.session, id, () => ({ tags: [open, restricted] }));
      expect(refused.json()).toEqual(
        invalidFieldBody('tags', new RegExp(`\\[${restricted}\\] are not allowed`)),
      );
      expect((await getApi(t, admin, id)).body.tags).toEqual([]);
      const allowed = await change(editor.session, id, () => ({ tags: [open] }));
      expect(allowed.statusCode, allowed.body).toBe(200);
      // The administrator puts the restricted tag on: the editor keeps it, and may not take it off.
      expect((await change(admin, id, () => ({ tags: [open, restricted] }))).statusCode).toBe(200);
      expect((await change(editor.session, id, () => ({ tags: [restricted] }))).statusCode).toBe(200);
      const removal = await change(editor.session, id, () => ({ tags: [] }));
      expect(removal.json()).toEqual(invalidFieldBody('tags', /are not allowed/));
      // A member of the group may.
      await grantRoleThroughGroup(t.db, editor.user.id, groupId, 'API', 'USER');
      expect((await change(editor.session, id, () => ({ tags: [] }))).statusCode).toBe(200);
      const usable = await call(t.app, editor.session, { method: 'GET', url: '/user/tags' });
      expect(usable.json()).toEqual(expect.arrayContaining([open, restricted]));
    });

    const template = (status: number, body = '{"error":"slow down"}') => ({
      RATE_LIMIT_TOO_MANY_REQUESTS: { 'application/json': { status, headers: { 'X-Why': 'limit' }, body } },
    });

    it('refuses a response template without content type, with a bad status or an empty header', async () => {
      const { id } = await createApiAs(t, admin);
      const before = await getApi(t, admin, id);
      const save = (response_templates: unknown) => change(admin, id, () => ({ response_templates }));

      const noType = await save({ API_KEY_MISSING: { '': { status: 401 } } });
      const badStatus = await save({ API_KEY_MISSING: { '*/*': { status: 99 } } });
      const emptyHeader = await save({ API_KEY_MISSING: { '*/*': { status: 401, headers: { 'X-A': '' } } } });

      for (const res of [noType, badStatus, emptyHeader]) {
        expect(res.statusCode).toBe(400);
        expect(res.json<{ message: string }>().message).toMatch(/response_templates\.API_KEY_MISSING/);
      }
      expect((await getApi(t, admin, id)).etag).toBe(before.etag);
      const good = await save({ API_KEY_MISSING: { '*/*': {} } });
      expect(good.json().response_templates).toEqual({
        API_KEY_MISSING: { '*/*': { status: 400, headers: {}, body: '' } },
      });
    });

    it('needs api-response_templates-c to add a key, -u to change one, -d to remove one; none deletes the key', async () => {
      const { id } = await createApiAs(t, admin);
      const reader = await holder(id, { RESPONSE_TEMPLATES: ['R'] });
      const creator = await holder(id, { RESPONSE_TEMPLATES: ['R', 'C'] });
      const updater = await holder(id, { RESPONSE_TEMPLATES: ['R', 'U'] });
      const deleter = await holder(id, { RESPONSE_TEMPLATES: ['R', 'D'] });
      const templates = (value: unknown) => () => ({ response_templates: value });

      const refused = await change(reader.session, id, templates(template(429)));
      expect(refused.json()).toEqual(
        errorBody(403, 'You do not have the permission api-response_templates-c'),
      );
      expect((await getApi(t, admin, id)).body.response_templates).toEqual({});
      expect((await change(creator.session, id, templates(template(429)))).statusCode).toBe(200);

      const notUpdater = await change(creator.session, id, templates(template(503)));
      expect(notUpdater.json()).toEqual(
        errorBody(403, 'You do not have the permission api-response_templates-u'),
      );
      const updated = await change(updater.session, id, templates(template(503)));
      expect(updated.json().response_templates.RATE_LIMIT_TOO_MANY_REQUESTS['application/json'].status).toBe(
        503,
      );
      // Other changes of the API keep the templates as they are: api-definition-u is enough.
      expect((await change(reader.session, id, (api) => ({ proxy: api.proxy }))).statusCode).toBe(200);

      const notDeleter = await change(updater.session, id, templates({ RATE_LIMIT_TOO_MANY_REQUESTS: {} }));
      expect(notDeleter.json()).toEqual(
        errorBody(403, 'You do not have the permission api-response_templates-d'),
      );
      const deleted = await change(deleter.session, id, templates({ RATE_LIMIT_TOO_MANY_REQUESTS: {} }));
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json().response_templates).toEqual({});
    });
  });
}
