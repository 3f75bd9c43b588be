import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createUser,
  errorBody,
  invalidFieldBody,
  login,
  startTestApp,
} from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs, getApi, insertApiPage } from './test-support/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests write the definition as JSON */
type Changes = Record<string, any>;

const step = (policy: string, configuration: unknown, extra: Record<string, unknown> = {}) => ({
  methods: [],
  enabled: true,
  ...extra,
  [policy]: configuration,
});
const header = step('transform-headers', { addHeaders: [{ name: 'X-A', value: '1' }] });
const oauth2 = { introspectionEndpoint: 'https://as.example.com/introspect', clientId: 'portico' };
const dynamic = (over: Record<string, any> = {}) => ({
  enabled: false,
  trigger: { rate: 5, unit: 'SECONDS' },
  provider: 'HTTP',
  configuration: { url: 'https://props.example.com', specification: '$' },
  ...over,
});

/**
 * The design rules of console-apis.md section 5 (policy paths, properties, dynamic properties,
 * resources, path mappings) enforced by `PUT apis/{id}`: 400 naming the field, nothing stored.
 */
const BAD: [string, Changes, string, string | undefined][] = [
  [
    'a path without a leading slash',
    { paths: { '/': [], orders: [] } },
    'paths.orders',
    'The path must start with /',
  ],
  [
    'two paths equal once parameters and trailing slashes are normalised',
    { paths: { '/': [], '/orders/:id': [], '/orders/:number/': [] } },
    'paths./orders/:number/',
    'This path is already configured.',
  ],
  [
    'a policy description over 500 characters',
    { paths: { '/': [{ ...header, description: 'x'.repeat(501) }] } },
    // The schema check names it from the wire path, where the key '/' joins as an empty segment.
    'paths.0.description',
    undefined,
  ],
  [
    'a policy configuration its schema refuses',
    { paths: { '/': [step('transform-headers', { scope: 'BOTH' })] } },
    'paths./.0.transform-headers.scope',
    undefined,
  ],
  ['an unknown policy', { paths: { '/': [step('teleport', {})] } }, 'paths./.0', 'Unknown policy teleport'],
  [
    'a property value over 160',
    { properties: [{ key: 'k', value: 'v'.repeat(161) }] },
    'properties.0.value',
    undefined,
  ],
  ['a property without a name', { properties: [{ key: '', value: 'v' }] }, 'properties.0.key', undefined],
  [
    'two properties of one key',
    {
      properties: [
        { key: 'k', value: '1' },
        { key: 'k', value: '2' },
      ],
    },
    'properties.1.key',
    'the key [k] is used twice',
  ],
  [
    'a dynamic-property interval of 0',
    { services: { 'dynamic-property': dynamic({ trigger: { rate: 0, unit: 'SECONDS' } }) } },
    'services.dynamic-property.trigger.rate',
    undefined,
  ],
  [
    'a dynamic-property provider without URL',
    { services: { 'dynamic-property': dynamic({ configuration: { url: '', specification: '$' } }) } },
    'services.dynamic-property.configuration.url',
    undefined,
  ],
  [
    'a dynamic-property provider without transformation',
    { services: { 'dynamic-property': dynamic({ configuration: { url: 'https://p', specification: '' } }) } },
    'services.dynamic-property.configuration.specification',
    undefined,
  ],
  ['a resource without type', { resources: [{ name: 'r', type: '' }] }, 'resources.0.type', undefined],
  [
    'a resource of an unknown type',
    { resources: [{ name: 'r', type: 'teleport', configuration: {} }] },
    'resources.0.type',
    'Unknown resource type [teleport]',
  ],
  [
    'a resource configuration its schema refuses',
    {
      resources: [{ name: 'r', type: 'oauth2', configuration: { ...oauth2, introspectionEndpoint: 'nope' } }],
    },
    'resources.0.configuration.introspectionEndpoint',
    undefined,
  ],
  [
    'two resources of one name',
    {
      resources: [
        { name: 'as', type: 'oauth2', configuration: oauth2 },
        { name: 'as', type: 'oauth2', configuration: oauth2 },
      ],
    },
    'resources.1.name',
    'the name [as] is used twice',
  ],
  [
    'a path mapping without slash',
    { path_mappings: ['orders'] },
    'path_mappings.0',
    'The path must start with /',
  ],
  [
    'a path mapping given twice',
    { path_mappings: ['/orders/:id', '/orders/:number/'] },
    'path_mappings.1',
    'This path mapping is already configured.',
  ],
];

const SWAGGER = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Shop', version: '1' },
  paths: { '/orders': {}, '/orders/{orderId}': {}, '/items/{id}/': {} },
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: design rules of PUT apis/{id}`, () => {
    let t: TestApp;
    let u: ApiUsers;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
    });
    afterAll(() => t?.close());

    const put = (session: TestSession, id: string, etag: string, payload: Changes) =>
      call(t.app, session, { method: 'PUT', url: `/apis/${id}`, headers: { 'if-match': etag }, payload });
    const importMappings = (session: TestSession, id: string, page?: string) =>
      call(t.app, session, {
        method: 'POST',
        url: `/apis/${id}/import-path-mappings${page === undefined ? '' : `?page=${page}`}`,
      });

    for (const [what, changes, field, reason] of BAD) {
      it(`refuses ${what}, naming ${field}, and stores nothing`, async () => {
        const api = await createApiAs(t, u.publisher.session);
        const before = await getApi(t, u.publisher.session, api.id);

        const res = await put(u.publisher.session, api.id, before.etag, changes);

        expect(res.json()).toEqual(invalidFieldBody(field, reason));
        const after = await getApi(t, u.publisher.session, api.id);
        expect(after.etag).toBe(before.etag);
        expect(after.body).toEqual(before.body);
      });
    }

    it('stores valid paths, properties, dynamic properties, resources and mappings', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const changes = {
        paths: {
          '/': [header],
          '/orders/:id': [{ ...header, enabled: false, methods: ['GET'], description: 'd' }],
        },
        properties: [{ key: 'region', value: 'eu', dynamic: false }],
        services: { 'dynamic-property': dynamic() },
        resources: [{ name: 'as', type: 'oauth2', enabled: false, configuration: oauth2 }],
        path_mappings: ['/orders/:id'],
      };

      const res = await put(u.publisher.session, api.id, api.etag, changes);

      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.paths['/orders/:id'][0]).toMatchObject({
        enabled: false,
        methods: ['GET'],
        description: 'd',
      });
      expect(body.properties).toEqual(changes.properties);
      expect(body.services['dynamic-property']).toMatchObject({ trigger: { rate: 5, unit: 'SECONDS' } });
      expect(body.resources[0]).toMatchObject({ name: 'as', type: 'oauth2', enabled: false });
      expect(body.path_mappings).toEqual(['/orders/:id']);
      const state = await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api.id}/state` });
      expect(state.json()).toMatchObject({ is_synchronized: false });
    });

    it('imports the path mappings of a swagger page, once each', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const before = await getApi(t, u.publisher.session, api.id);
      await put(u.publisher.session, api.id, before.etag, { path_mappings: ['/orders/:number'] });
      const page = await insertApiPage(t.db, api.id, { name: 'Spec', type: 'SWAGGER', content: SWAGGER });

      const res = await importMappings(u.publisher.session, api.id, page);

      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().path_mappings).toEqual(['/orders/:number', '/orders', '/items/:id']);
      expect(res.headers.etag).toBeTruthy();
    });

    it('refuses an import without page, of a markdown page, or of a page of another API', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const other = await createApiAs(t, u.publisher.session);
      const markdown = await insertApiPage(t.db, api.id, { name: 'Doc', type: 'MARKDOWN', content: '# x' });
      const foreign = await insertApiPage(t.db, other.id, { name: 'S', type: 'SWAGGER', content: SWAGGER });
      const etag = (await getApi(t, u.publisher.session, api.id)).etag;

      expect((await importMappings(u.publisher.session, api.id)).json()).toEqual(
        invalidFieldBody('page', 'A swagger document must be chosen.'),
      );
      expect((await importMappings(u.publisher.session, api.id, markdown)).json()).toEqual(
        invalidFieldBody('page', 'The page is not a swagger document.'),
      );
      expect((await importMappings(u.publisher.session, api.id, foreign)).statusCode).toBe(404);
      expect((await getApi(t, u.publisher.session, api.id)).etag).toBe(etag);
    });

    it('without api-definition-u, the design and the import are refused', async () => {
      const api = await createApiAs(t, u.publisher.session);
      const user = await createUser(t.db);
      const added = await call(t.app, u.publisher.session, {
        method: 'POST',
        url: `/apis/${api.id}/members`,
        payload: { id: user.id, role: 'USER' },
      });
      expect(added.statusCode, added.body).toBe(201);
      const member = await login(t.app, user.source_id, 'password');
      const page = await insertApiPage(t.db, api.id, { name: 'Spec', type: 'SWAGGER', content: SWAGGER });
      const { etag, body } = await getApi(t, member, api.id);

      const denied = errorBody(403, 'You do not have the permission api-definition-u');
      expect((await put(member, api.id, etag, { properties: [{ key: 'a', value: 'b' }] })).json()).toEqual(
        denied,
      );
      expect((await importMappings(member, api.id, page)).json()).toEqual(denied);
      expect((await importMappings(u.outsider.session, api.id, page)).statusCode).toBe(403);
      expect((await getApi(t, member, api.id)).body).toEqual(body);
    });
  });
}
