import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPageById, findPagesOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../../test-support/index.js';
import { call, signInNewUser, startTestApp } from '../../../test-support/index.js';
import { createApiAs } from '../../apis/test-support/index.js';
import { CONTENT_READ_ONLY } from '../pages.service.js';
import { OPENAPI, createPage } from '../test-support.js';
import { FETCH_FAILED } from './source-fetch.js';
import type { SeenRequest } from './test-support.js';
import { IMPORTED_TREE, b64, importSources, listen, sourceServer, treeLines } from './test-support.js';

/** Files served by the local source, by repository path: sub-folders two levels down. */
const files: Record<string, string> = {
  'docs/intro.md': '# Intro',
  'docs/api/openapi.json': OPENAPI,
  'docs/notes.txt': 'not a page',
  'docs/guides/usage.md': '# Usage',
  'docs/guides/setup/install.md': '# Install',
};
const seen: SeenRequest[] = [];

for (const dialect of await testDialects()) {
  describe(`${dialect}: page fetchers`, () => {
    let t: TestApp;
    let server: Server;
    let origin: string;
    let publisher: SignedInUser;
    let base: string;
    let apiId: string;

    beforeAll(async () => {
      files['docs/intro.md'] = '# Intro';
      server = sourceServer(files, seen);
      origin = await listen(server);
      // The installation lists its documentation server; link-local stays refused.
      t = await startTestApp(dialect, {
        options: { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] } },
      });
      publisher = await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' });
      apiId = (await createApiAs(t, publisher.session)).id;
      base = `/apis/${apiId}/pages`;
    });
    afterAll(async () => {
      await t?.close();
      server?.close();
    });

    it('lists the fetchers with their configuration schemas, and those that import folders', async () => {
      const all = await call(t.app, publisher.session, { method: 'GET', url: '/fetchers?expand=schema' });
      const importing = await call(t.app, publisher.session, { method: 'GET', url: '/fetchers?import=true' });

      expect(all.json().map((f: { id: string }) => f.id)).toEqual([
        'http-fetcher',
        'github-fetcher',
        'gitlab-fetcher',
        'bitbucket-fetcher',
      ]);
      const github = JSON.parse(all.json()[1].schema);
      expect(Object.keys(github.properties)).toEqual(
        expect.arrayContaining(['githubUrl', 'owner', 'repository', 'filepath', 'fetchCron']),
      );
      expect(importing.json().map((f: { id: string; schema?: string }) => [f.id, f.schema])).toEqual([
        ['github-fetcher', undefined],
        ['gitlab-fetcher', undefined],
        ['bitbucket-fetcher', undefined],
      ]);
    });

    it('fetches an http(s) page at creation, keeps its content read-only, and fetches it again on demand', async () => {
      const page = await createPage(t, publisher.session, base, {
        name: 'Remote',
        type: 'MARKDOWN',
        source: { type: 'http-fetcher', configuration: { url: `${origin}/raw/intro.md` } },
      });
      expect(page.content).toBe('# Intro');

      const edit = await call(t.app, publisher.session, {
        method: 'PATCH',
        url: `${base}/${page.id}`,
        payload: { content: 'mine' },
      });
      expect(edit.statusCode).toBe(400);
      expect(edit.json()).toMatchObject({
        field: 'content',
        message: expect.stringContaining(CONTENT_READ_ONLY),
      });

      files['docs/intro.md'] = '# Intro v2';
      const fetched = await call(t.app, publisher.session, {
        method: 'POST',
        url: `${base}/${page.id}/_fetch`,
      });
      expect(fetched.json().content).toBe('# Intro v2');
      files['docs/intro.md'] = '# Intro v3';
      expect(
        (await call(t.app, publisher.session, { method: 'POST', url: `${base}/_fetch` })).statusCode,
      ).toBe(204);
      expect((await findPageById(t.db, page.id))?.content).toBe('# Intro v3');

      const removed = await call(t.app, publisher.session, {
        method: 'PATCH',
        url: `${base}/${page.id}`,
        payload: { source: null, content: 'mine now' },
      });
      expect(removed.json()).toMatchObject({ source: null, content: 'mine now' });
    });

    it('reads a file through the GitHub, GitLab and Bitbucket APIs with their credentials', async () => {
      const github = await createPage(t, publisher.session, base, {
        name: 'gh',
        type: 'SWAGGER',
        source: {
          type: 'github-fetcher',
          configuration: {
            githubUrl: `${origin}/github`,
            owner: 'acme',
            repository: 'docs',
            filepath: 'docs/api/openapi.json',
            personalAccessToken: 's3cret',
          },
        },
      });
      expect(github.content).toBe(OPENAPI);
      expect(github.metadata).toEqual({
        provider_name: 'GitHub',
        edit_url: 'https://github.example/acme/docs/edit/main/docs/api/openapi.json',
      });
      expect(
        seen.find((s) => s.url.includes('/contents/docs/api/openapi.json?ref=main'))?.headers.authorization,
      ).toBe('token s3cret');

      const gitlab = await createPage(t, publisher.session, base, {
        name: 'gl',
        type: 'MARKDOWN',
        source: {
          type: 'gitlab-fetcher',
          configuration: {
            gitlabUrl: `${origin}/gitlab/api/v4`,
            namespace: 'acme',
            project: 'docs',
            filepath: 'docs/intro.md',
            privateToken: 'glpat',
          },
        },
      });
      expect(gitlab.content).toBe(files['docs/intro.md']);
      expect(seen.find((s) => s.url.startsWith('/gitlab/'))?.headers['private-token']).toBe('glpat');

      const bitbucket = await createPage(t, publisher.session, base, {
        name: 'bb',
        type: 'MARKDOWN',
        source: {
          type: 'bitbucket-fetcher',
          configuration: {
            bitbucketUrl: `${origin}/bitbucket`,
            username: 'acme',
            repository: 'docs',
            filepath: 'docs/intro.md',
            login: 'bob',
            password: 'pw',
          },
        },
      });
      expect(bitbucket.content).toBe(files['docs/intro.md']);
      expect(seen.find((s) => s.url.startsWith('/bitbucket/'))?.headers.authorization).toBe(
        `Basic ${b64('bob:pw')}`,
      );
    });

    it('imports a GitHub, GitLab or Bitbucket folder as pages under folders recreating its sub-folders, and again without duplicates', async () => {
      for (const source of importSources(origin)) {
        const api = (await createApiAs(t, publisher.session)).id;
        const payload = { published: true, source };
        const url = `/apis/${api}/pages/_import`;
        const res = await call(t.app, publisher.session, { method: 'POST', url, payload });

        expect(res.statusCode, `${source.type}: ${res.body}`).toBe(201);
        const answered = res.json<{ name: string; type: string; published: boolean }[]>();
        expect(answered.map((p) => [p.name, p.type, p.published]).sort(), source.type).toEqual([
          ['api', 'FOLDER', true],
          ['guides', 'FOLDER', true],
          ['install', 'MARKDOWN', true],
          ['intro', 'MARKDOWN', true],
          ['openapi', 'SWAGGER', true],
          ['setup', 'FOLDER', true],
          ['usage', 'MARKDOWN', true],
        ]);
        const stored = await findPagesOfReference(t.db, 'API', api);
        expect(treeLines(stored), source.type).toEqual(IMPORTED_TREE);
        const install = stored.find((p) => p.name === 'install')!;
        expect([install.content, JSON.parse(install.source!).configuration.filepath]).toEqual([
          '# Install',
          'docs/guides/setup/install.md',
        ]);

        // Imported again: the same folders and pages, their files fetched again.
        files['docs/guides/setup/install.md'] = '# Install v2';
        const again = await call(t.app, publisher.session, { method: 'POST', url, payload });
        files['docs/guides/setup/install.md'] = '# Install';
        expect(again.statusCode, again.body).toBe(201);
        const after = await findPagesOfReference(t.db, 'API', api);
        expect(treeLines(after), source.type).toEqual(IMPORTED_TREE);
        expect(after.map((p) => p.id).sort()).toEqual(stored.map((p) => p.id).sort());
        expect(after.find((p) => p.id === install.id)?.content).toBe('# Install v2');
        // The files are answered again, the folders already there are not.
        expect(
          again
            .json<{ name: string }[]>()
            .map((p) => p.name)
            .sort(),
        ).toEqual(['install', 'intro', 'openapi', 'usage']);
      }
    });

    it('refuses a source the outbound-URL guard refuses, or an unknown fetcher, and stores nothing', async () => {
      const before = (await findPagesOfReference(t.db, 'API', apiId)).length;
      const guarded = await call(t.app, publisher.session, {
        method: 'POST',
        url: base,
        payload: {
          name: 'meta',
          type: 'MARKDOWN',
          source: { type: 'http-fetcher', configuration: { url: 'http://169.254.169.254/latest' } },
        },
      });
      const unknown = await call(t.app, publisher.session, {
        method: 'POST',
        url: base,
        payload: { name: 'ftp', type: 'MARKDOWN', source: { type: 'ftp-fetcher', configuration: {} } },
      });
      const missing = await call(t.app, publisher.session, {
        method: 'POST',
        url: base,
        payload: {
          name: 'gh',
          type: 'MARKDOWN',
          source: { type: 'github-fetcher', configuration: { owner: 'acme' } },
        },
      });

      expect(guarded.statusCode).toBe(400);
      expect(guarded.json().message).toContain(FETCH_FAILED);
      expect(unknown.json()).toMatchObject({ http_status: 400, field: 'source.type' });
      expect(missing.json()).toMatchObject({ http_status: 400, field: 'source.configuration.repository' });
      expect((await findPagesOfReference(t.db, 'API', apiId)).length).toBe(before);
    });

    it('fetches a page on its fetchCron schedule from the scheduler', async () => {
      files['docs/intro.md'] = '# Scheduled v1';
      const page = await createPage(t, publisher.session, base, {
        name: 'Cron',
        type: 'MARKDOWN',
        source: {
          type: 'http-fetcher',
          configuration: { url: `${origin}/raw/intro.md`, fetchCron: '*/5 * * * *' },
        },
      });
      const due = (await findPageById(t.db, page.id))!.next_fetch_at!;
      expect(due).toBeGreaterThan(t.clock.peek());
      files['docs/intro.md'] = '# Scheduled v2';

      await t.services.scheduler.tick();
      expect((await findPageById(t.db, page.id))?.content).toBe('# Scheduled v1');
      t.clock.advance(due - t.clock.peek() + 1);
      await t.services.scheduler.tick();

      const after = (await findPageById(t.db, page.id))!;
      expect(after.content).toBe('# Scheduled v2');
      expect(after.next_fetch_at).toBe(due + 5 * 60_000);
    });
  });
}
