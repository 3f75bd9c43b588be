import { describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import { IMPORT_INVALID_FILE, IMPORT_INVALID_JSON } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { call, createUser, errorBody } from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { countRows, createApiAs, uniquePath } from './test-support/index.js';
import type { ImportApp } from './test-support/import-files.js';
import { swagger2, useImportApp } from './test-support/import-files.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API import and export`, () => {
    let t: TestApp, u: ApiUsers, importAs: ImportApp['importAs'];

    useImportApp(dialect, (app) => ({ t, u, importAs } = app));

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
  });
}
