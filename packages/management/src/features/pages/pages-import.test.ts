import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPagesOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, invalidFieldBody, signInNewUser, startTestApp } from '../../test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';
import type { SeenRequest, TestSource } from './fetchers/test-support.js';
import { IMPORTED_TREE, importSources, listen, sourceServer, treeLines } from './fetchers/test-support.js';
import { SENSITIVE_DATA_REPLACEMENT } from './pages.mapper.js';
import { ROOT_SOURCE } from './pages.service.js';
import { OPENAPI, createPage } from './test-support.js';

const files: Record<string, string> = {
  'docs/intro.md': '# Intro',
  'docs/api/openapi.json': OPENAPI,
  'docs/guides/usage.md': '# Usage',
  'docs/guides/setup/install.md': '# Install',
};
const seen: SeenRequest[] = [];
const under = (root: string) => IMPORTED_TREE.map((line) => `${root}/${line}`);

/**
 * `POST .../pages/_import` and its `type` (console-apis.md 2.8 and 6; Gravitee 1.x kept an import on
 * the documentation's ROOT page): ROOT keeps the repository folder on the ROOT page and puts its tree
 * under it, fetching the ROOT page imports the folder again; MARKDOWN or SWAGGER import those files.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: page imports`, () => {
    let t: TestApp;
    let server: Server;
    let github: TestSource;
    let publisher: SignedInUser;

    const importInto = (api: string, payload: object) =>
      call(t.app, publisher.session, { method: 'POST', url: `/apis/${api}/pages/_import`, payload });
    const tree = async (api: string) => treeLines(await findPagesOfReference(t.db, 'API', api));

    beforeAll(async () => {
      server = sourceServer(files, seen);
      const origin = await listen(server);
      github = importSources(origin)[0]!;
      t = await startTestApp(dialect, {
        options: { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] } },
      });
      publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
    });
    afterAll(async () => {
      await t?.close();
      server?.close();
      delete files['docs/guides/new.md'];
      delete files['docs/late.md'];
    });

    it('keeps a ROOT import on a new ROOT page, its tree under it, and imports new files when the ROOT page is fetched', async () => {
      const api = (await createApiAs(t, publisher.session)).id;
      const configuration = { ...github.configuration, personalAccessToken: 'tok', fetchCron: '*/5 * * * *' };
      const res = await importInto(api, {
        type: 'ROOT',
        published: true,
        source: { type: github.type, configuration },
      });

      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<{ type: string }[]>().map((p) => p.type)).not.toContain('ROOT');
      expect(await tree(api)).toEqual(['docs ROOT', ...under('docs')]);
      const rows = await findPagesOfReference(t.db, 'API', api);
      const root = rows.find((p) => p.type === 'ROOT')!;
      // The ROOT page holds the folder and its schedule; its files are fetched with it.
      expect(root.next_fetch_at).not.toBeNull();
      for (const row of rows.filter((p) => p.type === 'MARKDOWN'))
        expect([row.next_fetch_at, JSON.parse(row.source!).configuration.fetchCron]).toEqual([
          null,
          undefined,
        ]);
      const json = await call(t.app, publisher.session, {
        method: 'GET',
        url: `/apis/${api}/pages/${root.id}`,
      });
      expect(json.json()).toMatchObject({
        published: true,
        source: { configuration: { filepath: 'docs', personalAccessToken: SENSITIVE_DATA_REPLACEMENT } },
      });

      files['docs/guides/new.md'] = '# New';
      const fetched = await call(t.app, publisher.session, {
        method: 'POST',
        url: `/apis/${api}/pages/_fetch`,
      });
      expect(fetched.statusCode, fetched.body).toBe(204);
      expect(await tree(api)).toEqual(['docs ROOT', ...under('docs'), 'docs/guides/new MARKDOWN'].sort());
      expect(seen.at(-1)?.headers.authorization).toBe('token tok');

      // The scheduler imports the folder again on the ROOT page's schedule.
      files['docs/late.md'] = '# Late';
      t.clock.advance(root.next_fetch_at! - t.clock.peek() + 1);
      // Twice: the first may be a tick the background timer started before the clock moved.
      await t.services.scheduler.tick();
      await t.services.scheduler.tick();
      const scheduled = await tree(api);
      delete files['docs/late.md'];
      delete files['docs/guides/new.md'];
      expect(scheduled).toContain('docs/late MARKDOWN');
    });

    it('imports into the ROOT page already there, reuses its folders, keeps a secret sent back as ********', async () => {
      const api = (await createApiAs(t, publisher.session)).id;
      const base = `/apis/${api}/pages`;
      const root = await createPage(t, publisher.session, base, { name: 'Handbook', type: 'ROOT' });
      const guides = await createPage(t, publisher.session, base, {
        name: 'guides',
        type: 'FOLDER',
        parentId: root.id,
      });
      const source = {
        type: github.type,
        configuration: { ...github.configuration, personalAccessToken: 'tok' },
      };
      expect((await importInto(api, { type: 'ROOT', source })).statusCode).toBe(201);
      const masked = { ...source.configuration, personalAccessToken: SENSITIVE_DATA_REPLACEMENT };
      const again = await importInto(api, { type: 'ROOT', source: { ...source, configuration: masked } });

      expect(again.statusCode, again.body).toBe(201);
      expect(seen.at(-1)?.headers.authorization).toBe('token tok');
      expect(await tree(api)).toEqual(['Handbook ROOT', ...under('Handbook')]);
      const rows = await findPagesOfReference(t.db, 'API', api);
      expect(rows.find((p) => p.name === 'usage')?.parent_id).toBe(guides.id);
      // Drafts: the import was not published.
      expect(rows.filter((p) => p.published === 1)).toEqual([]);
    });

    it('renames the ROOT page and drops its source, but changes its source only through an import', async () => {
      const api = (await createApiAs(t, publisher.session)).id;
      expect((await importInto(api, { type: 'ROOT', source: github })).statusCode).toBe(201);
      const [root] = await findPagesOfReference(t.db, 'API', api, { type: 'ROOT' });
      const url = `/apis/${api}/pages/${root!.id}`;

      const renamed = await call(t.app, publisher.session, {
        method: 'PATCH',
        url,
        payload: { name: 'Docs' },
      });
      const moved = await call(t.app, publisher.session, {
        method: 'PATCH',
        url,
        payload: { source: { ...github, configuration: { ...github.configuration, filepath: 'other' } } },
      });
      const dropped = await call(t.app, publisher.session, {
        method: 'PATCH',
        url,
        payload: { source: null },
      });

      expect(renamed.json()).toMatchObject({ name: 'Docs', source: { type: github.type } });
      expect(moved.json()).toEqual(invalidFieldBody('source', ROOT_SOURCE));
      expect(dropped.json()).toMatchObject({ name: 'Docs', source: null });
    });

    it('imports only the Markdown or only the OpenAPI files with the type MARKDOWN or SWAGGER', async () => {
      const markdown = (await createApiAs(t, publisher.session)).id;
      const swagger = (await createApiAs(t, publisher.session)).id;
      expect((await importInto(markdown, { type: 'MARKDOWN', source: github })).statusCode).toBe(201);
      expect((await importInto(swagger, { type: 'SWAGGER', source: github })).statusCode).toBe(201);

      expect(await tree(markdown)).toEqual(IMPORTED_TREE.filter((l) => !l.startsWith('api')));
      expect(await tree(swagger)).toEqual(['api FOLDER', 'api/openapi SWAGGER']);
    });

    it('leaves the documentation as it was when the source can not list a folder', async () => {
      const api = (await createApiAs(t, publisher.session)).id;
      const http = { type: 'http-fetcher', configuration: { url: 'http://127.0.0.1/docs.md' } };
      const refused = await importInto(api, { type: 'ROOT', source: http });
      const missing = await importInto(api, {
        type: 'ROOT',
        source: { ...github, configuration: { ...github.configuration, filepath: 'nowhere' } },
      });

      expect(refused.json()).toMatchObject({ http_status: 400, field: 'source.type' });
      expect(missing.statusCode).toBe(400);
      expect(await tree(api)).toEqual([]);
    });
  });
}
