import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { findApiById, findPagesOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { IMPORT_INVALID_FILE, IMPORT_INVALID_JSON } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { call, errorBody } from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { countRows, createApiAs } from './test-support/index.js';
import type { ImportApp } from './test-support/import-files.js';
import { swagger2, openapi3, useImportApp } from './test-support/import-files.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API import and export`, () => {
    let t: TestApp, u: ApiUsers, importAs: ImportApp['importAs'];

    useImportApp(dialect, (app) => ({ t, u, importAs } = app));

    describe('POST apis/import/swagger', () => {
      it('creates the API of a Swagger 2.0 file: context path from basePath, endpoint from host', async () => {
        const res = await importAs(u.publisher.session, '/apis/import/swagger', {
          type: 'INLINE',
          payload: JSON.stringify(swagger2(`/petstore-${dialect}/v2`)),
        });

        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({
          name: 'Pet Store',
          version: '2.1.0',
          description: 'Pets for sale',
          context_path: `/petstore-${dialect}/v2`,
          proxy: { groups: [{ endpoints: [{ target: `https://pets.example.com/petstore-${dialect}/v2` }] }] },
          paths: { '/': [] },
          path_mappings: [],
        });
        expect(await findPagesOfReference(t.db, 'API', res.json().id)).toEqual([]);
      });

      it('creates path mappings, policy paths with a mock per operation, and the documentation page when asked', async () => {
        const text = JSON.stringify(swagger2(`/mocked-${dialect}`), null, 2);

        const res = await importAs(u.publisher.session, '/apis/import/swagger', {
          type: 'INLINE',
          payload: text,
          with_documentation: true,
          with_path_mapping: true,
          with_policy_paths: true,
          with_policy_mocks: true,
        });

        expect(res.statusCode, res.body).toBe(201);
        const body = res.json();
        expect(body.path_mappings).toEqual(['/pets', '/pets/:petId']);
        expect(Object.keys(body.paths).sort()).toEqual(['/', '/pets', '/pets/:petId']);
        expect(body.paths['/pets']).toEqual([
          expect.objectContaining({
            methods: ['GET'],
            enabled: true,
            mock: expect.objectContaining({
              status: 200,
              headers: [{ name: 'Content-Type', value: 'application/json' }],
            }),
          }),
          expect.objectContaining({ methods: ['POST'], mock: expect.objectContaining({ status: 201 }) }),
        ]);
        expect(JSON.parse(body.paths['/pets'][0].mock.content)).toEqual([
          { id: 0, name: 'Rex', born: '2026-01-01' },
        ]);
        expect(JSON.parse(body.paths['/pets'][1].mock.content)).toEqual({ id: 7 });
        const pages = await findPagesOfReference(t.db, 'API', body.id);
        expect(pages.map((p) => [p.type, p.name, p.content, p.published])).toEqual([
          ['SWAGGER', 'Pet Store', text, 0],
        ]);
      });

      it('creates policy paths without policies when mocks are not asked for', async () => {
        const res = await importAs(u.publisher.session, '/apis/import/swagger', {
          payload: JSON.stringify(swagger2(`/nomock-${dialect}`)),
          with_policy_paths: true,
        });

        expect(res.json().paths).toEqual({ '/': [], '/pets': [], '/pets/:petId': [] });
      });

      it('reads OpenAPI 3 in YAML: the server URL with its variables, examples of the content', async () => {
        const doc = openapi3([
          {
            url: `https://{region}.books.example.com/books-${dialect}/v3`,
            variables: { region: { default: 'eu' } },
          },
        ]);

        const res = await importAs(u.publisher.session, '/apis/import/swagger', {
          payload: toYaml(doc),
          with_policy_paths: true,
          with_policy_mocks: true,
        });

        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({
          name: 'Book Shelf',
          description: 'Description of Book Shelf',
          context_path: `/books-${dialect}/v3`,
          proxy: {
            groups: [{ endpoints: [{ target: `https://eu.books.example.com/books-${dialect}/v3` }] }],
          },
        });
        expect(JSON.parse(res.json().paths['/books/:isbn'][0].mock.content)).toEqual({
          isbn: '978-0',
          title: 'Dune',
        });
      });

      it('takes the context path from the title when the file names no server path (OpenAPI 3.1)', async () => {
        const doc = {
          ...openapi3([]),
          openapi: '3.1.0',
          info: { title: `Library ${dialect}`, version: '1' },
        };

        const res = await importAs(u.publisher.session, '/apis/import', { payload: JSON.stringify(doc) });

        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().context_path).toBe(`/library-${dialect}`);
      });

      it('refuses an invalid OpenAPI file, Swagger 1.x and a native definition, and stores nothing', async () => {
        const before = await countRows(t.db, 'apis');

        const invalid = await importAs(u.publisher.session, '/apis/import/swagger', {
          payload: JSON.stringify({ openapi: '3.0.0', paths: {} }),
        });
        const old = await importAs(u.publisher.session, '/apis/import/swagger', {
          payload: JSON.stringify({ swaggerVersion: '1.2', apis: [] }),
        });
        const native = await importAs(u.publisher.session, '/apis/import/swagger', {
          payload: JSON.stringify({ name: 'x', version: '1', proxy: { context_path: '/native' } }),
        });

        expect(invalid.json().message).toMatch(/^Input file must be a valid API definition file\./);
        expect(old.json().message).toMatch(/^Input file must be a valid API definition file\./);
        expect(native.json()).toEqual({ http_status: 400, message: IMPORT_INVALID_FILE, field: 'payload' });
        expect(await countRows(t.db, 'apis')).toBe(before);
      });

      it('never reads a file named by an external reference', async () => {
        const doc = openapi3([{ url: `https://x.example.com/extref-${dialect}` }]);
        (doc.paths['/books/{isbn}'].get.responses['200'].content['application/json'] as Record<
          string,
          unknown
        >) = {
          schema: { $ref: '/etc/passwd' },
        };

        const res = await importAs(u.publisher.session, '/apis/import/swagger', {
          payload: JSON.stringify(doc),
          with_policy_paths: true,
          with_policy_mocks: true,
        });

        expect(res.statusCode).toBe(201);
        expect(res.body).not.toContain('root:');
      });
    });

    describe('POST apis/{id}/import', () => {
      it('replaces the definition of the API from a native file, which keeps its id', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const exported = (
          await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/export` })
        ).json();

        const res = await importAs(u.publisher.session, `/apis/${api.id}/import`, {
          ...exported,
          id: 'another-id',
          description: 'Imported over',
          proxy: {
            ...exported.proxy,
            groups: [{ name: 'new', endpoints: [{ name: 'n1', target: 'https://new.example.com' }] }],
          },
          plans: [{ name: 'Imported plan', security: 'key_less', status: 'staging' }],
        });

        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({
          id: api.id,
          description: 'Imported over',
          proxy: { groups: [{ name: 'new' }] },
        });
        const plans = await t.db.selectFrom('plans').selectAll().where('api_id', '=', api.id).execute();
        expect(plans.map((p) => [p.name, p.security, p.status, p.validation])).toEqual([
          ['Imported plan', 'KEY_LESS', 'STAGING', 'AUTO'],
        ]);
      });

      it('updates the version, description, paths and documentation of the API from a Swagger file', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const body = {
          payload: JSON.stringify(swagger2()),
          with_documentation: true,
          with_path_mapping: true,
        };

        const first = await importAs(u.publisher.session, `/apis/${api.id}/import`, body);
        const second = await importAs(u.publisher.session, `/apis/${api.id}/import`, body);

        expect(first.statusCode, first.body).toBe(200);
        expect(second.json()).toMatchObject({
          id: api.id,
          name: 'Echo',
          version: '2.1.0',
          description: 'Pets for sale',
          context_path: api.body.context_path,
          path_mappings: ['/pets', '/pets/:petId'],
        });
        expect((await findPagesOfReference(t.db, 'API', api.id)).map((p) => p.type)).toEqual(['SWAGGER']);
      });

      it('refuses users without api-definition-u, and a bad file; the API stays as it was', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const before = await findApiById(t.db, api.id);

        const forbidden = await importAs(u.outsider.session, `/apis/${api.id}/import`, {
          payload: JSON.stringify(swagger2()),
        });
        const bad = await importAs(u.publisher.session, `/apis/${api.id}/import`, { payload: '{oops' });

        expect(forbidden.json()).toEqual(errorBody(403, 'You do not have the permission api-definition-u'));
        expect(bad.json()).toEqual({ http_status: 400, message: IMPORT_INVALID_JSON, field: 'payload' });
        expect(await findApiById(t.db, api.id)).toEqual(before);
      });
    });
  });
}
