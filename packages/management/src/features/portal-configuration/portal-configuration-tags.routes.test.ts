import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  createGroup,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: sharding tags, entrypoints, top APIs, portal headers and API references`, () => {
    let t: TestApp;
    let admin: TestSession;
    let plain: SignedInUser;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      plain = await signInNewUser(t.app, t.db);
    });
    afterAll(() => t?.close());

    const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, s = admin) =>
      call(t.app, s, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    const rows = (table: 'tags' | 'entrypoints' | 'top_apis' | 'api_headers') =>
      t.db.selectFrom(table).selectAll().execute();

    describe('sharding tags', () => {
      it('creates, reads, updates a tag restricted to groups', async () => {
        const group = await createGroup(t.db);
        const res = await req('POST', '/configuration/tags', {
          name: 'Internal',
          restricted_groups: [group.id],
        });
        expect(res.json()).toEqual({
          id: 'internal',
          name: 'Internal',
          description: null,
          restricted_groups: [group.id],
        });
        const updated = await req('PUT', '/configuration/tags/internal', {
          name: 'Internal',
          description: 'LAN',
        });
        expect(updated.json()).toMatchObject({ description: 'LAN', restricted_groups: [] });
        expect((await req('GET', '/configuration/tags/internal', undefined, plain.session)).statusCode).toBe(
          200,
        );
      });

      it('refuses a missing or long name and unknown restricted groups, storing nothing', async () => {
        const before = await rows('tags');
        expect((await req('POST', '/configuration/tags', {})).json()).toEqual(
          invalidFieldBody('name', 'Name is required.'),
        );
        expect((await req('POST', '/configuration/tags', { name: 'x'.repeat(65) })).json()).toEqual(
          invalidFieldBody('name'),
        );
        expect(
          (await req('POST', '/configuration/tags', { name: 'Ext', restricted_groups: ['nope'] })).json(),
        ).toEqual(invalidFieldBody('restricted_groups', 'the group [nope] does not exist'));
        expect(await rows('tags')).toEqual(before);
      });

      it('needs management-tag-c, -u and -d', async () => {
        const before = await rows('tags');
        expect((await req('POST', '/configuration/tags', { name: 'No' }, plain.session)).statusCode).toBe(
          403,
        );
        expect(
          (await req('PUT', '/configuration/tags/internal', { name: 'No' }, plain.session)).statusCode,
        ).toBe(403);
        expect(
          (await req('DELETE', '/configuration/tags/internal', undefined, plain.session)).statusCode,
        ).toBe(403);
        expect(await rows('tags')).toEqual(before);
      });
    });

    describe('entrypoints', () => {
      it('maps a URL to tags; the portal reads them at GET entrypoints', async () => {
        const res = await req('POST', '/configuration/entrypoints', {
          value: 'https://lan.example.com',
          tags: ['internal'],
        });
        expect(res.json()).toMatchObject({ value: 'https://lan.example.com', tags: ['internal'] });
        const id = res.json().id as string;
        const put = await req('PUT', '/configuration/entrypoints', {
          id,
          value: 'https://lan2.example.com',
          tags: ['internal'],
        });
        expect(put.json().value).toBe('https://lan2.example.com');
        const portal = await call(t.app, undefined, { method: 'GET', url: '/entrypoints' });
        expect(portal.json()).toEqual([{ id, value: 'https://lan2.example.com', tags: ['internal'] }]);
      });

      it('refuses a value that is not a URL, no tag or an unknown tag, storing nothing', async () => {
        const before = await rows('entrypoints');
        expect(
          (
            await req('POST', '/configuration/entrypoints', { value: 'not a url', tags: ['internal'] })
          ).json(),
        ).toEqual(invalidFieldBody('value'));
        expect(
          (await req('POST', '/configuration/entrypoints', { value: 'https://a.io', tags: [] })).json(),
        ).toEqual(invalidFieldBody('tags'));
        expect(
          (await req('POST', '/configuration/entrypoints', { value: 'https://a.io', tags: ['nope'] })).json(),
        ).toEqual(invalidFieldBody('tags', 'the sharding tag [nope] does not exist'));
        expect(await rows('entrypoints')).toEqual(before);
      });

      it('needs management-entrypoint-c, -u and -d; deleting a tag takes it off its entrypoints', async () => {
        const [entrypoint] = await rows('entrypoints');
        const body = { id: entrypoint!.id, value: 'https://x.io', tags: ['internal'] };
        expect((await req('POST', '/configuration/entrypoints', body, plain.session)).statusCode).toBe(403);
        expect((await req('PUT', '/configuration/entrypoints', body, plain.session)).statusCode).toBe(403);
        expect(
          (await req('DELETE', `/configuration/entrypoints/${entrypoint!.id}`, undefined, plain.session))
            .statusCode,
        ).toBe(403);
        expect(await rows('entrypoints')).toEqual([entrypoint]);
        expect((await req('DELETE', '/configuration/tags/internal')).statusCode).toBe(204);
        expect(await rows('entrypoints')).toEqual([]);
      });
    });

    describe('top APIs', () => {
      it('adds, reorders and removes top APIs; GET apis?top=true follows the order', async () => {
        const a = await createApi(t.db, { name: 'Alpha', visibility: 'PUBLIC' });
        const b = await createApi(t.db, { name: 'Beta', visibility: 'PUBLIC' });
        await req('POST', '/configuration/top-apis', { api: a.id });
        const added = await req('POST', '/configuration/top-apis', { api: b.id });
        expect(added.json().map((x: { name: string }) => x.name)).toEqual(['Alpha', 'Beta']);
        await req('PUT', '/configuration/top-apis', [{ api: b.id }, { api: a.id }]);
        const top = await call(t.app, undefined, { method: 'GET', url: '/apis?top=true' });
        expect(top.json().map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
        expect((await req('DELETE', `/configuration/top-apis/${b.id}`)).statusCode).toBe(204);
        expect(
          (await req('GET', '/configuration/top-apis')).json().map((x: { api: string }) => x.api),
        ).toEqual([a.id]);
      });

      it('refuses an unknown API, a duplicate and a reorder with other APIs; needs portal-top_apis-c/u/d', async () => {
        const before = await rows('top_apis');
        const [first] = before;
        expect((await req('POST', '/configuration/top-apis', { api: 'nope' })).json()).toEqual(
          invalidFieldBody('api'),
        );
        expect((await req('POST', '/configuration/top-apis', { api: first!.api_id })).json()).toEqual(
          invalidFieldBody('api'),
        );
        expect((await req('PUT', '/configuration/top-apis', [{ api: 'nope' }])).json()).toEqual(
          invalidFieldBody('api'),
        );
        expect(
          (await req('POST', '/configuration/top-apis', { api: first!.api_id }, plain.session)).statusCode,
        ).toBe(403);
        expect((await req('PUT', '/configuration/top-apis', [], plain.session)).statusCode).toBe(403);
        expect(
          (await req('DELETE', `/configuration/top-apis/${first!.api_id}`, undefined, plain.session))
            .statusCode,
        ).toBe(403);
        expect(await rows('top_apis')).toEqual(before);
      });
    });

    describe('API portal headers', () => {
      it('serves the headers of an API with values from the API, in order', async () => {
        const api = await createApi(t.db, { name: 'Gamma', version: '2.1', visibility: 'PUBLIC' });
        const created = await req('POST', '/configuration/apiheaders', {
          name: 'Name',
          value: 'API ${api.name}',
        });
        expect(created.json()).toMatchObject({ name: 'Name', order: 5 });
        await req('PUT', `/configuration/apiheaders/${created.json().id}`, {
          name: 'Name',
          value: 'API ${api.name}',
          order: 1,
        });
        const headers = await call(t.app, undefined, { method: 'GET', url: `/apis/${api.id}/headers` });
        expect(headers.json().slice(0, 2)).toEqual([
          { name: 'Name', value: 'API Gamma' },
          { name: 'api.version', value: '2.1' },
        ]);
      });

      it('refuses a header without a name or value; needs portal-api_header-c/u/d', async () => {
        const before = await rows('api_headers');
        expect((await req('POST', '/configuration/apiheaders', { value: 'x' })).json()).toEqual(
          invalidFieldBody('name'),
        );
        expect((await req('POST', '/configuration/apiheaders', { name: 'x', value: '' })).json()).toEqual(
          invalidFieldBody('value'),
        );
        const id = before[0]!.id;
        expect(
          (await req('POST', '/configuration/apiheaders', { name: 'a', value: 'b' }, plain.session))
            .statusCode,
        ).toBe(403);
        expect(
          (await req('PUT', `/configuration/apiheaders/${id}`, { name: 'a', value: 'b' }, plain.session))
            .statusCode,
        ).toBe(403);
        expect(
          (await req('DELETE', `/configuration/apiheaders/${id}`, undefined, plain.session)).statusCode,
        ).toBe(403);
        expect(await rows('api_headers')).toEqual(before);
      });
    });

    describe('references given on an API', () => {
      it('refuses unknown views and tenants on PUT apis/{id} naming the field, changing nothing', async () => {
        const created = await req('POST', '/apis', {
          name: 'Refs',
          version: '1',
          description: 'd',
          context_path: '/refs',
          endpoint: 'https://backend.example.com',
        });
        expect(created.statusCode).toBe(201);
        const id = created.json().id as string;
        const res = await req('PUT', `/apis/${id}`, { views: ['no-such-view'] });
        expect(res.json()).toEqual(invalidFieldBody('views', 'the view [no-such-view] does not exist'));
        const api = (await req('GET', `/apis/${id}`)).json();
        const proxy = {
          ...api.proxy,
          groups: api.proxy.groups.map((g: { endpoints: object[] }) => ({
            ...g,
            endpoints: g.endpoints.map((e) => ({ ...e, tenants: ['mars'] })),
          })),
        };
        expect((await req('PUT', `/apis/${id}`, { proxy })).json()).toEqual(
          invalidFieldBody('proxy.groups.endpoints.tenants'),
        );
        expect((await req('PUT', `/apis/${id}`, { groups: ['nope'] })).json()).toEqual(
          invalidFieldBody('groups'),
        );
        expect((await req('GET', `/apis/${id}`)).json().views).toEqual([]);
        expect((await req('PUT', `/apis/${id}`, { views: ['all'] })).json().views).toEqual(['all']);
      });
    });
  });
}
