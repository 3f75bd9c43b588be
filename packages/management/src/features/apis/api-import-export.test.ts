import { describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import {
  call,
  createGroup,
  createPlan,
  createTag,
  errorBody,
  startTestApp,
} from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs, insertApiPage } from './test-support/index.js';
import type { ImportApp } from './test-support/import-files.js';
import { useImportApp } from './test-support/import-files.js';

const PNG_URL = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]).toString('base64')}`;

for (const dialect of await testDialects()) {
  describe(`${dialect}: API import and export`, () => {
    let t: TestApp, u: ApiUsers, importAs: ImportApp['importAs'];

    useImportApp(dialect, (app) => ({ t, u, importAs } = app));

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
  });
}
