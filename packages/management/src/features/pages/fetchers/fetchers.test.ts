import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPageById, findPagesOfReference } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../../test-support/index.js';
import { call, signInNewUser, startTestApp } from '../../../test-support/index.js';
import { createApiAs } from '../../apis/test-support/index.js';
import { CONTENT_READ_ONLY } from '../pages.service.js';
import { OPENAPI, createPage } from '../test-support.js';
import { FETCH_FAILED } from './source-fetch.js';

/** Files served by the local source, by repository path. */
const files: Record<string, string> = {
  'docs/intro.md': '# Intro',
  'docs/api/openapi.json': OPENAPI,
  'docs/notes.txt': 'not a page',
};
const seen: { url: string; headers: IncomingMessage['headers'] }[] = [];
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Answers as GitHub's contents API, GitLab's files and tree API, Bitbucket's src API and a plain URL. */
function sourceServer(): Server {
  return createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    const url = new URL(req.url!, 'http://local');
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    let m = /^\/github\/repos\/acme\/docs\/contents\/(.*)$/.exec(url.pathname);
    if (m) {
      const path = decodeURIComponent(m[1]!);
      if (files[path] !== undefined)
        return send(200, {
          type: 'file',
          path,
          encoding: 'base64',
          content: b64(files[path]!),
          html_url: `https://github.example/acme/docs/blob/main/${path}`,
        });
      const entries = Object.keys(files).filter((f) => f.startsWith(`${path}/`));
      if (entries.length === 0) return send(404, { message: 'Not Found' });
      const direct = new Map<string, string>();
      for (const f of entries) {
        const rest = f.slice(path.length + 1);
        direct.set(
          rest.includes('/') ? `${path}/${rest.split('/')[0]}` : f,
          rest.includes('/') ? 'dir' : 'file',
        );
      }
      return send(
        200,
        [...direct].map(([p, type]) => ({ type, path: p, name: p.split('/').pop() })),
      );
    }
    const under = (folder: string) => Object.keys(files).filter((f) => f.startsWith(`${folder}/`));
    // The listings answer one entry a page, to read a long folder through its pages.
    const page = Number(url.searchParams.get('page') ?? '1');
    if (url.pathname === '/gitlab/api/v4/projects/acme%2Fdocs/repository/tree') {
      const entries = [
        { type: 'tree', path: 'docs/api' },
        ...under(url.searchParams.get('path')!).map((path) => ({ type: 'blob', path })),
      ];
      res.setHeader('x-next-page', page < entries.length ? String(page + 1) : '');
      return send(200, entries.slice(page - 1, page));
    }
    m = /^\/gitlab\/api\/v4\/projects\/acme%2Fdocs\/repository\/files\/(.*)$/.exec(req.url!.split('?')[0]!);
    if (m) {
      const path = decodeURIComponent(m[1]!);
      return files[path] !== undefined
        ? send(200, { encoding: 'base64', content: b64(files[path]!) })
        : send(404, {});
    }
    m = /^\/bitbucket\/repositories\/acme\/docs\/src\/main\/(.*)$/.exec(url.pathname);
    if (m) {
      const path = decodeURIComponent(m[1]!);
      if (path.endsWith('/')) {
        const folder = path.slice(0, -1);
        const entries = new Map(
          under(folder).map((f) => {
            const rest = f.slice(folder.length + 1).split('/');
            return [`${folder}/${rest[0]}`, rest.length > 1 ? 'commit_directory' : 'commit_file'];
          }),
        );
        const values = [...entries].map(([p, type]) => ({ type, path: p }));
        // The last page names a next page elsewhere: it is not followed (the credentials stay home).
        const next =
          page < values.length
            ? `http://${req.headers.host}${url.pathname}?pagelen=100&page=${page + 1}`
            : 'http://elsewhere.invalid/next';
        return send(200, { values: values.slice(page - 1, page), next });
      }
      return files[path] !== undefined ? send(200, files[path]!, 'text/plain') : send(404, {});
    }
    if (url.pathname === '/raw/intro.md') return send(200, files['docs/intro.md']!, 'text/markdown');
    send(404, { message: 'Not Found' });
  });
}

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
      server = sourceServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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

    it('imports the Markdown and OpenAPI files of a repository folder as pages', async () => {
      const api = (await createApiAs(t, publisher.session)).id;
      const res = await call(t.app, publisher.session, {
        method: 'POST',
        url: `/apis/${api}/pages/_import`,
        payload: {
          published: true,
          source: {
            type: 'github-fetcher',
            configuration: {
              githubUrl: `${origin}/github`,
              owner: 'acme',
              repository: 'docs',
              filepath: 'docs',
            },
          },
        },
      });

      expect(res.statusCode, res.body).toBe(201);
      expect(
        res
          .json()
          .map((p: { name: string; type: string; published: boolean }) => [p.name, p.type, p.published]),
      ).toEqual([
        ['intro', 'MARKDOWN', true],
        ['openapi', 'SWAGGER', true],
      ]);
    });

    it('imports the files of a GitLab project folder and of a Bitbucket repository folder, page by page', async () => {
      const sources = [
        {
          type: 'gitlab-fetcher',
          configuration: { gitlabUrl: `${origin}/gitlab/api/v4`, namespace: 'acme', project: 'docs' },
        },
        {
          type: 'bitbucket-fetcher',
          configuration: { bitbucketUrl: `${origin}/bitbucket`, username: 'acme', repository: 'docs' },
        },
      ];
      for (const { type, configuration } of sources) {
        const api = (await createApiAs(t, publisher.session)).id;
        const res = await call(t.app, publisher.session, {
          method: 'POST',
          url: `/apis/${api}/pages/_import`,
          payload: {
            source: {
              type,
              configuration: { ...configuration, filepath: 'docs' },
            },
          },
        });

        expect(res.statusCode, `${type}: ${res.body}`).toBe(201);
        const pages = res.json<{ name: string; type: string; content: string }[]>();
        expect(pages.map((p) => [p.name, p.type, p.content]).sort(), type).toEqual([
          ['intro', 'MARKDOWN', files['docs/intro.md']],
          ['openapi', 'SWAGGER', OPENAPI],
        ]);
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
