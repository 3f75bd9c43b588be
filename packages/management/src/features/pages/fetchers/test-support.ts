import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { PageRow } from '@portico/storage';
import type { AddressInfo } from 'node:net';

/** A request the local source received. */
export interface SeenRequest {
  url: string;
  headers: IncomingMessage['headers'];
}

export const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Starts the server on a free local port; answers its origin (`http://127.0.0.1:port`). */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Answers as GitHub's contents API, GitLab's files and tree API, Bitbucket's src API and a plain URL,
 * for the repository `acme/docs` holding `files` (by repository path, sub-folders included).
 */
export function sourceServer(files: Record<string, string>, seen: SeenRequest[] = []): Server {
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
      // A recursive tree: every sub-folder (a tree entry) and every file (a blob) under the folder.
      const folder = url.searchParams.get('path')!;
      const blobs = under(folder);
      const parents = (f: string) => f.split('/').map((_, n, parts) => parts.slice(0, n).join('/'));
      const trees = new Set(blobs.flatMap(parents).filter((p) => p.startsWith(`${folder}/`)));
      const entries = [
        ...[...trees].map((path) => ({ type: 'tree', path })),
        ...blobs.map((path) => ({ type: 'blob', path })),
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

/** A page source as the tests send it. */
export interface TestSource {
  type: string;
  configuration: Record<string, string>;
}

/** The source configurations of the folder `docs` of the local source, one per fetcher that imports. */
export const importSources = (origin: string): TestSource[] => [
  {
    type: 'github-fetcher',
    configuration: { githubUrl: `${origin}/github`, owner: 'acme', repository: 'docs', filepath: 'docs' },
  },
  {
    type: 'gitlab-fetcher',
    configuration: {
      gitlabUrl: `${origin}/gitlab/api/v4`,
      namespace: 'acme',
      project: 'docs',
      filepath: 'docs',
    },
  },
  {
    type: 'bitbucket-fetcher',
    configuration: {
      bitbucketUrl: `${origin}/bitbucket`,
      username: 'acme',
      repository: 'docs',
      filepath: 'docs',
    },
  },
];

/** The pages of a documentation as `path/of/names TYPE` lines, sorted: its tree. */
export function treeLines(rows: readonly Pick<PageRow, 'id' | 'name' | 'type' | 'parent_id'>[]): string[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const path = (row: (typeof rows)[number]): string => {
    const parent = row.parent_id ? byId.get(row.parent_id) : undefined;
    return parent ? `${path(parent)}/${row.name}` : row.name;
  };
  return rows.map((r) => `${path(r)} ${r.type}`).sort();
}

/** The tree an import of `docs` makes (`notes.txt` is no page). */
export const IMPORTED_TREE = [
  'api FOLDER',
  'api/openapi SWAGGER',
  'guides FOLDER',
  'guides/setup FOLDER',
  'guides/setup/install MARKDOWN',
  'guides/usage MARKDOWN',
  'intro MARKDOWN',
];
