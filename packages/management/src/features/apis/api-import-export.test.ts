import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { findApiById, findPagesOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { IMPORT_INVALID_FILE, IMPORT_INVALID_JSON } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import {
  call,
  createGroup,
  createPlan,
  createTag,
  createUser,
  errorBody,
  startTestApp,
} from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, countRows, createApiAs, insertApiPage, uniquePath } from './test-support/index.js';

const PNG_URL = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]).toString('base64')}`;

const swagger2 = (basePath = '/petstore/v2') => ({
  swagger: '2.0',
  info: { title: 'Pet Store', version: '2.1.0', description: 'Pets for sale' },
  host: 'pets.example.com',
  basePath,
  schemes: ['https'],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: {
          '200': {
            description: 'the pets',
            schema: { type: 'array', items: { $ref: '#/definitions/Pet' } },
          },
        },
      },
      post: { responses: { '201': { description: 'created', examples: { 'application/json': { id: 7 } } } } },
    },
    '/pets/{petId}': {
      get: {
        parameters: [{ name: 'petId', in: 'path', required: true, type: 'string' }],
        responses: { '200': { description: 'a pet', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
  },
  definitions: {
    Pet: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string', example: 'Rex' },
        born: { type: 'string', format: 'date' },
      },
    },
  },
});

const openapi3 = (
  servers: unknown[] = [
    { url: 'https://{region}.books.example.com/api/v3', variables: { region: { default: 'eu' } } },
  ],
) => ({
  openapi: '3.0.3',
  info: { title: 'Book Shelf', version: '3.0' },
  servers,
  paths: {
    '/books/{isbn}': {
      get: {
        parameters: [{ name: 'isbn', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'a book',
            content: { 'application/json': { example: { isbn: '978-0', title: 'Dune' } } },
          },
        },
      },
    },
  },
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: API import and export`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    const importAs = (session: typeof u.admin, url: string, payload: unknown) =>
      call(t.app, session, { method: 'POST', url, payload: payload as Record<string, unknown> });

    describe('export', () => {
      it('writes the API, its groups, members, pages, plans and metadata, named after the API', async () => {
        const api = await createApiAs(t, u.publisher.session, { name: 'Stock Quotes', version: '1.2' });
        const group = await createGroup(t.db, 'Traders');
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: { groups: [group.id] },
        });
        await createPlan(t.db, api.id, { name: 'Free', status: 'PUBLISHED' });
        await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/metadata`,
          payload: { name: 'Team', value: 'quotes' },
        });

        const res = await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/export` });

        expect(res.statusCode).toBe(200);
        expect(res.headers['content-disposition']).toBe('attachment; filename="Stock-Quotes-1.2.json"');
        expect(res.json()).toMatchObject({
          id: api.id,
          name: 'Stock Quotes',
          proxy: { context_path: api.body.context_path },
          groups: ['Traders'],
          members: [{ source: 'portico', sourceId: u.publisher.user.source_id, role: 'PRIMARY_OWNER' }],
          plans: [{ name: 'Free', status: 'PUBLISHED' }],
          metadata: [{ key: 'team', name: 'Team', format: 'STRING', value: 'quotes' }],
          pages: [],
        });
      });

      it('leaves out the excluded fields', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const res = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/export?exclude=groups,members,pages,plans,metadata`,
        });

        const body = res.json();
        for (const field of ['groups', 'members', 'pages', 'plans', 'metadata'])
          expect(body).not.toHaveProperty(field);
        expect(body).toHaveProperty('proxy');
      });

      it('writes the older shapes: 1.20 without virtual hosts nor response templates, 1.15 with one list of endpoints', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const proxy = {
          context_path: api.body.context_path,
          virtual_hosts: [{ host: 'a.example.com', path: api.body.context_path }],
          groups: [
            {
              name: 'g1',
              endpoints: [{ name: 'e1', target: 'https://one.example.com' }],
              load_balancing: { type: 'RANDOM' },
            },
            { name: 'g2', endpoints: [{ name: 'e2', target: 'https://two.example.com' }] },
          ],
        };
        const saved = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: {
            proxy,
            path_mappings: ['/items/:id'],
            response_templates: { API_KEY_MISSING: { 'application/json': { status: 401, body: '{}' } } },
          },
        });
        expect(saved.statusCode, saved.body).toBe(200);

        const v120 = (
          await call(t.app, u.publisher.session, {
            method: 'GET',
            url: `/apis/${api.id}/export?version=1.20`,
          })
        ).json();
        const v115 = (
          await call(t.app, u.publisher.session, {
            method: 'GET',
            url: `/apis/${api.id}/export?version=1.15-1.16`,
          })
        ).json();

        expect(v120.proxy).not.toHaveProperty('virtual_hosts');
        expect(v120.proxy.groups).toHaveLength(2);
        expect(v120).not.toHaveProperty('response_templates');
        expect(v120.path_mappings).toEqual(['/items/:id']);
        expect(v115.proxy).toMatchObject({
          context_path: api.body.context_path,
          endpoints: [{ name: 'e1' }, { name: 'e2' }],
          load_balancing: { type: 'RANDOM' },
        });
        expect(v115.proxy).not.toHaveProperty('groups');
        expect(v115).not.toHaveProperty('path_mappings');
        expect(v115).not.toHaveProperty('metadata');
        expect(v115.members).toEqual([{ username: u.publisher.user.source_id, role: 'PRIMARY_OWNER' }]);
      });

      it('refuses an unknown field to exclude and an unknown version, naming the parameter', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const exclude = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/export?exclude=secrets`,
        });
        const version = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${api.id}/export?version=0.9`,
        });

        expect(exclude.json().field).toBe('exclude');
        expect(version.json().field).toBe('version');
      });

      it('refuses users without api-definition-r', async () => {
        const api = await createApiAs(t, u.publisher.session);

        const res = await call(t.app, u.outsider.session, { method: 'GET', url: `/apis/${api.id}/export` });

        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-definition-r'));
      });
    });

    describe('round trip', () => {
      it('gives back the same API when its export is imported into an empty installation', async () => {
        await createTag(t.db, 'edge-tag');
        // The views given on an API must exist (issue 12), in both installations.
        const view = { id: 'trips', name: 'Trips', created_at: 0, updated_at: 0 };
        await t.db.insertInto('views').values(view).execute();
        const api = await createApiAs(t, u.publisher.session, {
          name: 'Round Trip',
          description: 'There and back',
        });
        const group = await createGroup(t.db, `Travellers-${dialect}`);
        const proxy = {
          context_path: api.body.context_path,
          strip_context_path: true,
          groups: [
            {
              name: 'main',
              endpoints: [
                { name: 'primary', target: 'https://a.example.com', weight: 3 },
                { name: 'backup', target: 'https://b.example.com', backup: true },
              ],
              load_balancing: { type: 'WEIGHTED_ROUND_ROBIN' },
            },
          ],
          cors: {
            enabled: true,
            allowOrigin: ['https://shop.example.com'],
            allowMethods: ['GET'],
            maxAge: 60,
          },
          failover: { maxAttempts: 2, retryTimeout: 500 },
          logging: { mode: 'CLIENT' },
        };
        const saved = await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api.id}`,
          payload: {
            proxy,
            labels: ['travel'],
            views: ['trips'],
            tags: ['edge-tag'],
            groups: [group.id],
            picture: PNG_URL,
            visibility: 'PUBLIC',
            paths: { '/': [{ methods: ['GET'], 'rate-limit': { rate: { limit: 5 } }, enabled: true }] },
            properties: [{ key: 'region', value: 'eu' }],
            resources: [
              {
                name: 'auth',
                type: 'oauth2',
                configuration: {
                  introspectionEndpoint: 'https://as.example.com/introspect',
                  clientId: 'portico',
                },
              },
            ],
            path_mappings: ['/trips/:id'],
            response_templates: { QUOTA_TOO_MANY_REQUESTS: { '*/*': { status: 429, body: 'slow down' } } },
            services: { 'health-check': { enabled: true, trigger: { rate: 30, unit: 'SECONDS' } } },
          },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        await createPlan(t.db, api.id, {
          name: 'Gold',
          status: 'PUBLISHED',
          security: 'API_KEY',
          paths: JSON.stringify({ '/': [{ methods: ['GET'], quota: { limit: 10 } }] }),
          characteristics: '["fast"]',
        });
        await insertApiPage(t.db, api.id, {
          name: 'Guide',
          type: 'MARKDOWN',
          content: '# Guide',
          published: true,
        });
        await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${api.id}/metadata`,
          payload: { name: 'Support', format: 'MAIL', value: 'help@example.com' },
        });
        const exported = (
          await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/export` })
        ).json();
        const original = (
          await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}` })
        ).json();

        const empty = await startTestApp(dialect);
        await empty.db.insertInto('views').values(view).execute();
        await createTag(empty.db, 'edge-tag');
        try {
          const admin = await apiUsers(empty).then((users) => users.admin);
          const imported = await call(empty.app, admin, {
            method: 'POST',
            url: '/apis/import',
            payload: exported,
          });
          expect(imported.statusCode, imported.body).toBe(200);
          expect(imported.json().id).toBe(api.id);

          const copy = (await call(empty.app, admin, { method: 'GET', url: `/apis/${api.id}` })).json();
          const comparable = (json: Record<string, unknown>) => {
            const { owner: _o, created_at: _c, updated_at: _u, picture_url: _p, groups: _g, ...rest } = json;
            return rest;
          };
          expect(comparable(copy)).toEqual(comparable(original));
          const again = (
            await call(empty.app, admin, { method: 'GET', url: `/apis/${api.id}/export` })
          ).json();
          const withoutMembers = (json: Record<string, unknown>) => {
            const { members: _m, plans, ...rest } = json;
            return {
              ...rest,
              plans: (plans as Record<string, unknown>[]).map(
                ({ created_at: _c, updated_at: _u, ...p }) => p,
              ),
            };
          };
          expect(withoutMembers(again)).toEqual(withoutMembers(exported));
          expect(again.members).toEqual([{ source: 'portico', sourceId: 'admin', role: 'PRIMARY_OWNER' }]);
        } finally {
          await empty.close();
        }
      });

      it('imports a 1.15 export back, endpoints becoming one group', async () => {
        const api = await createApiAs(t, u.publisher.session);
        const old = (
          await call(t.app, u.publisher.session, {
            method: 'GET',
            url: `/apis/${api.id}/export?version=1.15`,
          })
        ).json();
        await call(t.app, u.publisher.session, { method: 'DELETE', url: `/apis/${api.id}` });

        const res = await importAs(u.publisher.session, '/apis/import', old);

        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().proxy.groups).toEqual([
          expect.objectContaining({
            name: 'default-group',
            endpoints: [expect.objectContaining({ name: 'default' })],
          }),
        ]);
      });
    });

    describe('POST apis/import (native definitions)', () => {
      it('imports a Gravitee 1.x definition: endpoints list, properties map, policies on paths, members', async () => {
        const member = await createUser(t.db, { username: `gravitee-${dialect}-${Date.now()}` });
        const definition = {
          name: 'Legacy',
          version: '1',
          description: 'From the old platform',
          visibility: 'public',
          proxy: {
            context_path: uniquePath('legacy'),
            strip_context_path: false,
            endpoints: [
              { name: 'e1', target: 'http://legacy.example.com', weight: 1, backup: false, type: 'http' },
              { name: 'e2', target: 'http://legacy2.example.com', weight: 2, backup: true },
            ],
            loadBalancing: { type: 'WEIGHTED_RANDOM' },
          },
          paths: { '/': [{ methods: ['GET', 'POST'], 'transform-headers': { addHeaders: [] } }] },
          properties: { region: 'eu', tier: 'gold' },
          members: [{ source: 'portico', sourceId: member.source_id, role: 'OWNER' }],
        };

        const res = await importAs(u.publisher.session, '/apis/import', {
          type: 'INLINE',
          payload: JSON.stringify(definition),
        });

        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({
          name: 'Legacy',
          visibility: 'PUBLIC',
          state: 'STOPPED',
          owner: { id: u.publisher.user.id },
          proxy: {
            groups: [
              {
                name: 'default-group',
                load_balancing: { type: 'WEIGHTED_RANDOM' },
                endpoints: [
                  { name: 'e1', type: 'HTTP' },
                  { name: 'e2', backup: true },
                ],
              },
            ],
          },
          paths: definition.paths,
          properties: [
            { key: 'region', value: 'eu', dynamic: false },
            { key: 'tier', value: 'gold', dynamic: false },
          ],
        });
        const members = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `/apis/${body.id}/members`,
        });
        expect(members.json().map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
          [u.publisher.user.id, 'PRIMARY_OWNER'],
          [member.id, 'OWNER'],
        ]);
      });

      it('refuses a bad JSON file, a file that is no definition, and a definition with a bad field; stores nothing', async () => {
        const before = await countRows(t.db, 'apis');

        const badJson = await importAs(u.publisher.session, '/apis/import', {
          type: 'INLINE',
          payload: '{"name": ',
        });
        const notApi = await importAs(u.publisher.session, '/apis/import', {
          payload: 'just: some\nyaml: file',
        });
        const badField = await importAs(u.publisher.session, '/apis/import', {
          name: 'X',
          version: 'v'.repeat(40),
          proxy: { context_path: uniquePath(), groups: [{ name: 'g', endpoints: [] }] },
        });
        const badType = await importAs(u.publisher.session, '/apis/import', { type: 'FTP', payload: 'x' });
        const empty = await importAs(u.publisher.session, '/apis/import', { type: 'INLINE', payload: '' });

        expect(badJson.json()).toEqual({ http_status: 400, message: IMPORT_INVALID_JSON, field: 'payload' });
        expect(notApi.json()).toEqual({ http_status: 400, message: IMPORT_INVALID_FILE, field: 'payload' });
        expect(badField.json()).toMatchObject({ http_status: 400, field: 'version' });
        expect(badType.json()).toMatchObject({ http_status: 400, field: 'type' });
        expect(empty.json()).toMatchObject({ http_status: 400, field: 'payload' });
        expect(await countRows(t.db, 'apis')).toBe(before);
      });

      it('refuses a definition whose context path is taken', async () => {
        const taken = await createApiAs(t, u.publisher.session);

        const res = await importAs(u.publisher.session, '/apis/import', {
          name: 'Clash',
          version: '1',
          proxy: { context_path: taken.body.context_path, groups: [{ name: 'g', endpoints: [] }] },
        });

        expect(res.json()).toMatchObject({ http_status: 400, field: 'proxy.context_path' });
      });

      it('refuses users without management-api-c', async () => {
        const before = await countRows(t.db, 'apis');

        const res = await importAs(u.outsider.session, '/apis/import', {
          name: 'X',
          version: '1',
          proxy: { context_path: uniquePath(), groups: [{ name: 'g', endpoints: [] }] },
        });
        const swagger = await importAs(u.outsider.session, '/apis/import/swagger', {
          payload: JSON.stringify(swagger2(uniquePath())),
        });

        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission management-api-c'));
        expect(swagger.statusCode).toBe(403);
        expect(await countRows(t.db, 'apis')).toBe(before);
      });
    });

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
