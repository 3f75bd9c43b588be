import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPagesOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createGroup,
  errorBody,
  grantRoleOn,
  grantRoleThroughGroup,
  invalidFieldBody,
  login,
  signInNewUser,
} from '../../test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';
import { FOLDER_NOT_HOMEPAGE, PARENT_CYCLE, PARENT_NOT_FOLDER } from './pages.service.js';
import { NOT_OPENAPI } from './pages.content.js';
import { RAML_DEPRECATED } from './pages.schemas.js';
import { OPENAPI, createPage, names } from './test-support.js';

const notOpenApi = new RegExp(NOT_OPENAPI.replace(/[()]/g, '\\$&'));

for (const dialect of await testDialects()) {
  describe(`${dialect}: API pages`, () => {
    let t: TestApp;
    let admin: TestSession;
    let publisher: SignedInUser;
    let reader: SignedInUser;
    let apiId: string;
    let base: string;

    beforeAll(async () => {
      t = await startApp();
      admin = await login(t.app, 'admin', 'admin');
      publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
      reader = await signInNewUser(t.app, t.db);
      apiId = (await createApiAs(t, publisher.session)).id;
      base = `/apis/${apiId}/pages`;
      await grantRoleOn(t.db, reader.user.id, 'API', apiId, 'USER');
    });
    afterAll(() => t?.close());
    const startApp = async () => (await import('../../test-support/index.js')).startTestApp(dialect);

    describe('create, read and list', () => {
      it('creates a Markdown page at the end of its folder and reads it back', async () => {
        const folder = await createPage(t, publisher.session, base, { name: 'Guides', type: 'FOLDER' });
        const first = await createPage(t, publisher.session, base, {
          name: 'Start',
          type: 'MARKDOWN',
          content: '# Start',
          parentId: folder.id,
        });
        const second = await createPage(t, publisher.session, base, {
          name: 'More',
          type: 'MARKDOWN',
          parentId: folder.id,
        });

        expect(first).toMatchObject({ order: 0, published: false, parentId: folder.id, content: '# Start' });
        expect(second.order).toBe(1);
        const got = await call(t.app, publisher.session, { method: 'GET', url: `${base}/${first.id}` });
        expect(got.json()).toMatchObject({ id: first.id, name: 'Start', type: 'MARKDOWN' });
        const children = await call(t.app, publisher.session, {
          method: 'GET',
          url: `${base}?parent=${folder.id}`,
        });
        expect(names(children)).toEqual(['Start', 'More']);
        const root = await call(t.app, publisher.session, { method: 'GET', url: `${base}?root=true` });
        expect(names(root)).toContain('Guides');
        expect(names(root)).not.toContain('Start');
      });

      it('answers the Swagger content as stored on the content call', async () => {
        const page = await createPage(t, publisher.session, base, {
          name: 'Contract',
          type: 'SWAGGER',
          content: OPENAPI,
        });
        const res = await call(t.app, publisher.session, {
          method: 'GET',
          url: `${base}/${page.id}/content`,
        });

        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.body).toBe(OPENAPI);
      });

      it('gives a RAML page its deprecation warning', async () => {
        const page = await createPage(t, publisher.session, base, {
          name: 'Old',
          type: 'RAML',
          content: '#%RAML 1.0',
        });
        expect(page.messages).toEqual([RAML_DEPRECATED]);
      });

      it('keeps script payloads as plain JSON strings, never rendered nor escaped', async () => {
        const payload = '<script>alert(1)</script><img src=x onerror=alert(2)>';
        const page = await createPage(t, publisher.session, base, {
          name: payload,
          type: 'MARKDOWN',
          content: `# Hi\n${payload}`,
        });
        const res = await call(t.app, publisher.session, { method: 'GET', url: `${base}/${page.id}` });

        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toMatchObject({ name: payload, content: `# Hi\n${payload}` });
        expect(res.body).toContain('<script>alert(1)</script>');
        const openapi = JSON.stringify({
          ...JSON.parse(OPENAPI),
          info: { title: payload, version: '1', description: payload },
        });
        const swagger = await createPage(t, publisher.session, base, {
          name: 'xss',
          type: 'SWAGGER',
          content: openapi,
        });
        expect(swagger.content).toBe(openapi);
      });
    });

    describe('validation: 400 naming the field, nothing stored', () => {
      const refused = async (payload: Record<string, unknown>, field: string, reason?: RegExp | string) => {
        const before = (await findPagesOfReference(t.db, 'API', apiId)).length;
        const res = await call(t.app, publisher.session, { method: 'POST', url: base, payload });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject(invalidFieldBody(field, reason));
        expect((await findPagesOfReference(t.db, 'API', apiId)).length).toBe(before);
      };

      it('refuses a page without a name or with an unknown type', async () => {
        await refused({ name: ' ', type: 'MARKDOWN' }, 'name');
        await refused({ name: 'x', type: 'PDF' }, 'type');
      });

      it('refuses an OpenAPI page whose content does not parse or is not OpenAPI', async () => {
        await refused({ name: 'x', type: 'SWAGGER', content: '{ "openapi": ' }, 'content', notOpenApi);
        await refused({ name: 'x', type: 'SWAGGER', content: 'title: nothing' }, 'content', notOpenApi);
        await refused(
          { name: 'x', type: 'SWAGGER', content: JSON.stringify({ openapi: '3.0.0', info: {}, paths: 3 }) },
          'content',
          notOpenApi,
        );
      });

      it('accepts OpenAPI 3 and Swagger 2 documents, JSON or YAML', async () => {
        await createPage(t, publisher.session, base, { name: 'o3', type: 'SWAGGER', content: OPENAPI });
        const swagger2 = 'swagger: "2.0"\ninfo:\n  title: S\n  version: "1"\npaths: {}\n';
        await createPage(t, publisher.session, base, { name: 's2', type: 'SWAGGER', content: swagger2 });
      });

      it('bounds the content size and the depth of an OpenAPI document', async () => {
        const big = 'a'.repeat(5 * 1024 * 1024 + 1);
        await refused({ name: 'x', type: 'MARKDOWN', content: big }, 'content', /larger than the limit/);
        const deep = `openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-deep: ${'['.repeat(100)}${']'.repeat(100)}`;
        await refused({ name: 'x', type: 'SWAGGER', content: deep }, 'content', /deeper than/);
      });

      it('refuses content or the homepage flag on a folder, and a parent that is not a folder', async () => {
        const page = await createPage(t, publisher.session, base, { name: 'leaf', type: 'MARKDOWN' });
        await refused({ name: 'f', type: 'FOLDER', content: 'x' }, 'content');
        await refused({ name: 'f', type: 'FOLDER', homepage: true }, 'homepage', FOLDER_NOT_HOMEPAGE);
        await refused({ name: 'p', type: 'MARKDOWN', parentId: page.id }, 'parentId', PARENT_NOT_FOLDER);
        await refused({ name: 'p', type: 'MARKDOWN', parentId: 'nope' }, 'parentId', PARENT_NOT_FOLDER);
      });

      it('refuses an unknown excluded group and a wrong configuration value', async () => {
        await refused({ name: 'p', type: 'MARKDOWN', excluded_groups: ['nope'] }, 'excluded_groups');
        await refused(
          { name: 'p', type: 'SWAGGER', configuration: { docExpansion: 'all' } },
          'configuration.docExpansion',
        );
        await refused(
          { name: 'p', type: 'SWAGGER', configuration: { maxDisplayedTags: 'many' } },
          'configuration.maxDisplayedTags',
        );
        await refused({ name: 'p', type: 'SWAGGER', configuration: { evil: 'true' } }, 'configuration.evil');
      });

      it('drops an excluded group deleted since, when the page is saved again', async () => {
        const group = await createGroup(t.db, `gone-${dialect}`);
        const page = await createPage(t, publisher.session, base, {
          name: 'Restricted',
          type: 'MARKDOWN',
          excluded_groups: [group.id],
        });
        await t.db.deleteFrom('groups').where('id', '=', group.id).execute();

        const res = await call(t.app, publisher.session, {
          method: 'PUT',
          url: `${base}/${page.id}`,
          payload: { name: 'Restricted', excluded_groups: [group.id] },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().excluded_groups).toEqual([]);
      });

      it('stores the Swagger configuration with string values', async () => {
        const page = await createPage(t, publisher.session, base, {
          name: 'conf',
          type: 'SWAGGER',
          content: OPENAPI,
          configuration: {
            tryIt: true,
            docExpansion: 'full',
            maxDisplayedTags: -1,
            tryItURL: 'https://gw.example.com',
          },
        });
        expect(page.configuration).toEqual({
          tryIt: 'true',
          docExpansion: 'full',
          maxDisplayedTags: '-1',
          tryItURL: 'https://gw.example.com',
        });
      });
    });

    describe('update, move, reorder, publish, homepage, remove', () => {
      it('reorders siblings when a page moves up or down', async () => {
        const folder = await createPage(t, publisher.session, base, { name: 'Order', type: 'FOLDER' });
        const ids: string[] = [];
        for (const name of ['a', 'b', 'c'])
          ids.push(
            (await createPage(t, publisher.session, base, { name, type: 'MARKDOWN', parentId: folder.id }))
              .id,
          );
        const patch = (id: string, payload: Record<string, unknown>) =>
          call(t.app, publisher.session, { method: 'PATCH', url: `${base}/${id}`, payload });

        expect((await patch(ids[2]!, { order: 0 })).statusCode).toBe(200);
        const list = await call(t.app, publisher.session, {
          method: 'GET',
          url: `${base}?parent=${folder.id}`,
        });
        expect(list.json().map((p: { name: string; order: number }) => [p.name, p.order])).toEqual([
          ['c', 0],
          ['a', 1],
          ['b', 2],
        ]);
      });

      it('moves a page to another folder, refusing a folder into its own sub-folder', async () => {
        const outer = await createPage(t, publisher.session, base, { name: 'Outer', type: 'FOLDER' });
        const inner = await createPage(t, publisher.session, base, {
          name: 'Inner',
          type: 'FOLDER',
          parentId: outer.id,
        });
        const page = await createPage(t, publisher.session, base, { name: 'Mover', type: 'MARKDOWN' });

        const moved = await call(t.app, publisher.session, {
          method: 'PATCH',
          url: `${base}/${page.id}`,
          payload: { parentId: inner.id },
        });
        expect(moved.json()).toMatchObject({ parentId: inner.id, order: 0 });
        const cycle = await call(t.app, publisher.session, {
          method: 'PATCH',
          url: `${base}/${outer.id}`,
          payload: { parentId: inner.id },
        });
        expect(cycle.json()).toMatchObject(invalidFieldBody('parentId', PARENT_CYCLE));
      });

      it('renames, publishes and keeps one homepage per API', async () => {
        const one = await createPage(t, publisher.session, base, {
          name: 'One',
          type: 'MARKDOWN',
          homepage: true,
        });
        const two = await createPage(t, publisher.session, base, { name: 'Two', type: 'MARKDOWN' });
        const res = await call(t.app, publisher.session, {
          method: 'PUT',
          url: `${base}/${two.id}`,
          payload: { name: 'Deux', content: '# 2', published: true, homepage: true },
        });

        expect(res.json()).toMatchObject({ name: 'Deux', published: true, homepage: true, content: '# 2' });
        const home = await call(t.app, publisher.session, { method: 'GET', url: `${base}?homepage=true` });
        expect(names(home)).toEqual(['Deux']);
        const oneNow = await call(t.app, publisher.session, { method: 'GET', url: `${base}/${one.id}` });
        expect(oneNow.json().homepage).toBe(false);
      });

      it('moves the pages of a removed folder to the root', async () => {
        const folder = await createPage(t, publisher.session, base, { name: 'Gone', type: 'FOLDER' });
        const child = await createPage(t, publisher.session, base, {
          name: 'Orphan',
          type: 'MARKDOWN',
          parentId: folder.id,
        });
        const res = await call(t.app, publisher.session, { method: 'DELETE', url: `${base}/${folder.id}` });

        expect(res.statusCode).toBe(204);
        const got = await call(t.app, publisher.session, { method: 'GET', url: `${base}/${child.id}` });
        expect(got.json().parentId).toBeNull();
        expect(
          (await call(t.app, publisher.session, { method: 'GET', url: `${base}/${folder.id}` })).statusCode,
        ).toBe(404);
      });
    });

    describe('permissions and visibility', () => {
      it('answers 403 without api-documentation-c, -u or -d', async () => {
        const page = await createPage(t, publisher.session, base, { name: 'Guarded', type: 'MARKDOWN' });
        const calls = [
          { method: 'POST' as const, url: base, payload: { name: 'x', type: 'MARKDOWN' } },
          { method: 'PUT' as const, url: `${base}/${page.id}`, payload: { name: 'x' } },
          { method: 'PATCH' as const, url: `${base}/${page.id}`, payload: { published: true } },
          { method: 'DELETE' as const, url: `${base}/${page.id}` },
          { method: 'POST' as const, url: `${base}/_fetch` },
          { method: 'POST' as const, url: `${base}/${page.id}/_fetch` },
          { method: 'POST' as const, url: `${base}/_import`, payload: { source: { type: 'http-fetcher' } } },
        ];
        for (const request of calls) {
          const res = await call(t.app, reader.session, request);
          expect(res.statusCode, `${request.method}: ${res.body}`).toBe(403);
          expect(res.json()).toMatchObject(errorBody(403, /api-documentation-/));
        }
        const still = await call(t.app, publisher.session, { method: 'GET', url: `${base}/${page.id}` });
        expect(still.json()).toMatchObject({ name: 'Guarded', published: false });
      });

      it('shows readers only published pages', async () => {
        const draft = await createPage(t, publisher.session, base, { name: 'Draft', type: 'MARKDOWN' });
        await createPage(t, publisher.session, base, { name: 'Public', type: 'MARKDOWN', published: true });

        const list = await call(t.app, reader.session, { method: 'GET', url: base });
        expect(names(list)).toContain('Public');
        expect(names(list)).not.toContain('Draft');
        expect(
          (await call(t.app, reader.session, { method: 'GET', url: `${base}/${draft.id}` })).statusCode,
        ).toBe(403);
        expect(names(await call(t.app, admin, { method: 'GET', url: base }))).toContain('Draft');
      });

      it('hides a page from the members of its excluded groups in the list, get and content calls', async () => {
        const group = await createGroup(t.db, `excluded-${dialect}`);
        const member = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, member.user.id, group.id, 'API', 'USER');
        const other = await signInNewUser(t.app, t.db);
        await call(t.app, publisher.session, {
          method: 'PUT',
          url: `/apis/${apiId}`,
          payload: { groups: [group.id], visibility: 'PUBLIC' },
        });
        const page = await createPage(t, publisher.session, base, {
          name: 'Partners only',
          type: 'MARKDOWN',
          published: true,
          excluded_groups: [group.id],
        });

        expect(names(await call(t.app, member.session, { method: 'GET', url: base }))).not.toContain(
          'Partners only',
        );
        expect(
          (await call(t.app, member.session, { method: 'GET', url: `${base}/${page.id}` })).statusCode,
        ).toBe(403);
        expect(
          (await call(t.app, member.session, { method: 'GET', url: `${base}/${page.id}/content` }))
            .statusCode,
        ).toBe(403);
        expect(names(await call(t.app, other.session, { method: 'GET', url: base }))).toContain(
          'Partners only',
        );
        // Anonymous readers never see a page restricted by groups; they see the other published pages.
        const anonymous = await call(t.app, undefined, { method: 'GET', url: base });
        expect(anonymous.statusCode).toBe(200);
        expect(names(anonymous)).not.toContain('Partners only');
        expect(names(anonymous)).toContain('Public');
        expect(names(await call(t.app, publisher.session, { method: 'GET', url: base }))).toContain(
          'Partners only',
        );
      });
    });
  });
}
