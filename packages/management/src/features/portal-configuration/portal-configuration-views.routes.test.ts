import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

for (const dialect of await testDialects()) {
  describe(`${dialect}: views, tenants and global metadata (configuration/...)`, () => {
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
    const views = async () => await t.db.selectFrom('views').selectAll().orderBy('order').execute();

    describe('views', () => {
      it('has the default view all, which cannot be deleted', async () => {
        const list = (await req('GET', '/configuration/views')).json<
          { id: string; defaultView: boolean }[]
        >();
        expect(list.map((v) => [v.id, v.defaultView])).toEqual([['all', true]]);
        const res = await req('DELETE', '/configuration/views/all');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('id'));
        expect((await views()).map((v) => v.id)).toContain('all');
      });

      it('creates a view with an id from its name; a new default unsets the previous one', async () => {
        const res = await req('POST', '/configuration/views', {
          name: 'Finance APIs',
          defaultView: true,
          picture: PNG,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: 'finance-apis',
          name: 'Finance APIs',
          defaultView: true,
          totalApis: 0,
        });
        expect(res.json().picture_url).toMatch(/configuration\/views\/finance-apis\/picture/);
        const stored = await views();
        expect(stored.filter((v) => v.default_view === 1).map((v) => v.id)).toEqual(['finance-apis']);
        expect((await req('GET', '/configuration/views/default')).json().id).toBe('finance-apis');
        const picture = await req('GET', '/configuration/views/finance-apis/picture');
        expect(picture.headers['content-type']).toBe('image/png');
      });

      it('refuses a view without a name, with a name over 50 characters or a duplicate name, storing nothing', async () => {
        const before = (await views()).length;
        expect((await req('POST', '/configuration/views', {})).json()).toEqual(
          invalidFieldBody('name', 'View name is required.'),
        );
        expect((await req('POST', '/configuration/views', { name: 'x'.repeat(51) })).json()).toEqual(
          invalidFieldBody('name', 'The name has to be less than 50 characters long.'),
        );
        expect(
          (await req('POST', '/configuration/views', { name: 'finance apis ' })).statusCode,
        ).toBeGreaterThanOrEqual(400);
        expect(
          (
            await req('POST', '/configuration/views', { name: 'Pic', picture: 'data:text/html;base64,AA==' })
          ).json(),
        ).toEqual(invalidFieldBody('picture'));
        expect((await views()).length).toBe(before);
      });

      it('hides hidden views from the portal, not from readers of views asking all=true', async () => {
        await req('POST', '/configuration/views', { name: 'Secret', hidden: true });
        const anonymous = await call(t.app, undefined, {
          method: 'GET',
          url: '/configuration/views?all=true',
        });
        expect(anonymous.json().map((v: { id: string }) => v.id)).not.toContain('secret');
        const all = await req('GET', '/configuration/views?all=true');
        expect(all.json().map((v: { id: string }) => v.id)).toContain('secret');
      });

      it('reorders views with PUT configuration/views and counts their APIs', async () => {
        await createApi(t.db, { views: JSON.stringify(['secret']) });
        const res = await req('PUT', '/configuration/views', [
          { id: 'secret', name: 'Secret', order: 1 },
          { id: 'finance-apis', name: 'Finance APIs', order: 2 },
        ]);
        expect(res.statusCode).toBe(200);
        const list = (await req('GET', '/configuration/views?all=true')).json<
          { id: string; totalApis: number }[]
        >();
        expect(list.map((v) => v.id)).toEqual(['all', 'secret', 'finance-apis']);
        expect(list.find((v) => v.id === 'secret')!.totalApis).toBe(1);
      });

      it('deletes a view and takes it off its APIs', async () => {
        const api = await createApi(t.db, { views: JSON.stringify(['secret']) });
        expect((await req('DELETE', '/configuration/views/secret')).statusCode).toBe(204);
        const row = await t.db
          .selectFrom('apis')
          .select('views')
          .where('id', '=', api.id)
          .executeTakeFirstOrThrow();
        expect(JSON.parse(row.views)).toEqual([]);
      });

      it('needs portal-view-c, -u and -d to create, update and delete (403 otherwise, nothing stored)', async () => {
        const before = await views();
        expect((await req('POST', '/configuration/views', { name: 'Nope' }, plain.session)).statusCode).toBe(
          403,
        );
        expect(
          (await req('PUT', '/configuration/views/finance-apis', { name: 'Nope' }, plain.session)).statusCode,
        ).toBe(403);
        expect(
          (await req('PUT', '/configuration/views', [{ id: 'all', name: 'Nope' }], plain.session)).statusCode,
        ).toBe(403);
        expect(
          (await req('DELETE', '/configuration/views/finance-apis', undefined, plain.session)).statusCode,
        ).toBe(403);
        expect(await views()).toEqual(before);
      });
    });

    describe('tenants', () => {
      const tenants = () => t.db.selectFrom('tenants').selectAll().orderBy('name').execute();

      it('creates and updates tenants in batches', async () => {
        const created = await req('POST', '/configuration/tenants', [{ name: 'Europe', description: 'EU' }]);
        expect(created.json()).toEqual([{ id: 'europe', name: 'Europe', description: 'EU' }]);
        const updated = await req('PUT', '/configuration/tenants', [
          { id: 'europe', name: 'EU West', description: null },
        ]);
        expect(updated.json()).toEqual([{ id: 'europe', name: 'EU West', description: null }]);
        expect((await req('GET', '/configuration/tenants', undefined, plain.session)).json()).toEqual([
          { id: 'europe', name: 'EU West', description: null },
        ]);
      });

      it('refuses empty or long names, long descriptions and duplicate names, storing nothing', async () => {
        const before = await tenants();
        expect((await req('POST', '/configuration/tenants', [{ name: '' }])).json()).toEqual(
          invalidFieldBody('0.name'),
        );
        expect((await req('POST', '/configuration/tenants', [{ name: 'x'.repeat(31) }])).json()).toEqual(
          invalidFieldBody('0.name', 'The name has to be less than 30 characters long.'),
        );
        expect(
          (
            await req('POST', '/configuration/tenants', [{ name: 'Asia', description: 'd'.repeat(161) }])
          ).json(),
        ).toEqual(invalidFieldBody('0.description'));
        expect(
          (await req('POST', '/configuration/tenants', [{ name: 'Asia' }, { name: 'eu west' }])).json(),
        ).toEqual(invalidFieldBody('1.name', 'a tenant named [eu west] already exists'));
        expect(await tenants()).toEqual(before);
      });

      it('needs management-tenant-c, -u and -d', async () => {
        const before = await tenants();
        expect(
          (await req('POST', '/configuration/tenants', [{ name: 'Nope' }], plain.session)).statusCode,
        ).toBe(403);
        expect(
          (await req('PUT', '/configuration/tenants', [{ id: 'europe', name: 'Nope' }], plain.session))
            .statusCode,
        ).toBe(403);
        expect(
          (await req('DELETE', '/configuration/tenants/europe', undefined, plain.session)).statusCode,
        ).toBe(403);
        expect(await tenants()).toEqual(before);
        expect((await req('DELETE', '/configuration/tenants/europe')).statusCode).toBe(204);
        expect(await tenants()).toEqual([]);
      });
    });

    describe('global metadata', () => {
      const metadata = () =>
        t.db.selectFrom('metadata').selectAll().where('reference_type', '=', 'DEFAULT').execute();

      it('creates, updates and deletes a global metadata; its key comes from the name', async () => {
        const res = await req('POST', '/configuration/metadata', {
          name: 'Support mail',
          format: 'mail',
          value: 'a@b.io',
        });
        expect(res.json()).toEqual({
          key: 'support-mail',
          name: 'Support mail',
          format: 'mail',
          value: 'a@b.io',
          defaultValue: 'a@b.io',
        });
        const updated = await req('PUT', '/configuration/metadata', {
          key: 'support-mail',
          name: 'Support',
          format: 'string',
          value: 'x',
        });
        expect(updated.json()).toMatchObject({
          key: 'support-mail',
          name: 'Support',
          format: 'string',
          value: 'x',
        });
        expect(
          (await req('GET', '/configuration/metadata')).json().map((m: { key: string }) => m.key),
        ).toEqual(['support-mail']);
      });

      it('refuses a value that does not fit its format, a missing name and an unknown format', async () => {
        const before = await metadata();
        expect(
          (
            await req('POST', '/configuration/metadata', { name: 'n', format: 'numeric', value: 'abc' })
          ).json(),
        ).toEqual(invalidFieldBody('value'));
        expect((await req('POST', '/configuration/metadata', { format: 'string' })).json()).toEqual(
          invalidFieldBody('name'),
        );
        expect((await req('POST', '/configuration/metadata', { name: 'n', format: 'color' })).json()).toEqual(
          invalidFieldBody('format'),
        );
        expect(await metadata()).toEqual(before);
      });

      it('needs portal-metadata-c, -u and -d', async () => {
        const before = await metadata();
        expect((await req('POST', '/configuration/metadata', { name: 'n' }, plain.session)).statusCode).toBe(
          403,
        );
        expect(
          (await req('PUT', '/configuration/metadata', { key: 'support-mail', name: 'n' }, plain.session))
            .statusCode,
        ).toBe(403);
        expect(
          (await req('DELETE', '/configuration/metadata/support-mail', undefined, plain.session)).statusCode,
        ).toBe(403);
        expect(await metadata()).toEqual(before);
        expect((await req('DELETE', '/configuration/metadata/support-mail')).statusCode).toBe(204);
        expect(await metadata()).toEqual([]);
      });
    });
  });
}
