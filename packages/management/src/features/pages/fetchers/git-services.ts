import type { OutboundResponse } from '@portico/outbound';
import type { z } from 'zod';
import type { BitbucketFetcherConfig, GithubFetcherConfig, GitlabFetcherConfig } from './fetchers.catalog.js';

/** A GET through the outbound-URL guard, answering the response (any status). */
export type Get = (url: string, headers: Record<string, string>) => Promise<OutboundResponse>;

export interface FetchedFile {
  content: string;
  metadata: Record<string, string>;
}
export interface ListedFile {
  path: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');
/** Listing pages read at most for one folder (each page is one request to the source). */
const MAX_LIST_PAGES = 10;
const encodePath = (path: string) => path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

export class SourceStatusError extends Error {
  constructor(readonly status: number) {
    super(`the source answered HTTP ${status}`);
  }
}

function ok(response: OutboundResponse): OutboundResponse {
  if (response.status < 200 || response.status > 299) throw new SourceStatusError(response.status);
  return response;
}

function decodeBase64(body: { content?: unknown; encoding?: unknown }): string {
  if (typeof body.content !== 'string') throw new Error('the source answered without a file content');
  return body.encoding === 'base64' ? Buffer.from(body.content, 'base64').toString('utf8') : body.content;
}

type Github = z.infer<typeof GithubFetcherConfig>;
type Gitlab = z.infer<typeof GitlabFetcherConfig>;
type Bitbucket = z.infer<typeof BitbucketFetcherConfig>;

/** GitHub's contents API: `GET /repos/{owner}/{repo}/contents/{path}?ref=`. */
export const github = {
  headers(c: Github): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/vnd.github.v3+json' };
    if (c.personalAccessToken) h.authorization = `token ${c.personalAccessToken}`;
    return h;
  },
  url(c: Github, path: string) {
    return `${trimSlash(c.githubUrl)}/repos/${encodeURIComponent(c.owner)}/${encodeURIComponent(c.repository)}/contents/${encodePath(path)}?ref=${encodeURIComponent(c.branchOrTag)}`;
  },
  async file(get: Get, c: Github, path = c.filepath): Promise<FetchedFile> {
    const body = JSON.parse(ok(await get(this.url(c, path), this.headers(c))).text()) as Record<
      string,
      unknown
    >;
    const metadata: Record<string, string> = { provider_name: 'GitHub' };
    if (typeof body.html_url === 'string') metadata.edit_url = body.html_url.replace('/blob/', '/edit/');
    return { content: decodeBase64(body), metadata };
  },
  /** The files under a folder, sub-folders included (at most `max`, one request a folder, 100 at most). */
  async list(get: Get, c: Github, max: number): Promise<ListedFile[]> {
    const out: ListedFile[] = [];
    const folders = [c.filepath];
    for (let reads = 0; folders.length > 0 && out.length < max && reads < MAX_LIST_PAGES * 10; reads++) {
      const folder = folders.shift()!;
      const entries = JSON.parse(ok(await get(this.url(c, folder), this.headers(c))).text()) as unknown;
      if (!Array.isArray(entries)) continue;
      for (const e of entries as { type?: string; path?: string }[]) {
        if (typeof e.path !== 'string') continue;
        if (e.type === 'file' && out.length < max) out.push({ path: e.path });
        else if (e.type === 'dir' && folders.length < MAX_LIST_PAGES * 10) folders.push(e.path);
      }
    }
    return out.slice(0, max);
  },
};

/** GitLab's repository files API: `GET /projects/{namespace%2Fproject}/repository/files/{path}?ref=`. */
export const gitlab = {
  headers(c: Gitlab): Record<string, string> {
    return c.privateToken ? { 'private-token': c.privateToken } : {};
  },
  project(c: Gitlab) {
    return `${trimSlash(c.gitlabUrl)}/projects/${encodeURIComponent(`${c.namespace}/${c.project}`)}`;
  },
  async file(get: Get, c: Gitlab, path = c.filepath): Promise<FetchedFile> {
    const url = `${this.project(c)}/repository/files/${encodeURIComponent(path.replace(/^\/+/, ''))}?ref=${encodeURIComponent(c.branchOrTag)}`;
    const body = JSON.parse(ok(await get(url, this.headers(c))).text()) as Record<string, unknown>;
    const web = trimSlash(c.gitlabUrl).replace(/\/api\/v4$/, '');
    return {
      content: decodeBase64(body),
      metadata: {
        provider_name: 'GitLab',
        edit_url: `${web}/${c.namespace}/${c.project}/-/edit/${c.branchOrTag}/${path.replace(/^\/+/, '')}`,
      },
    };
  },
  /** The files under a folder, read 100 entries a page while GitLab names a next page (`x-next-page`). */
  async list(get: Get, c: Gitlab, max: number): Promise<ListedFile[]> {
    const out: ListedFile[] = [];
    const folder = encodeURIComponent(c.filepath.replace(/^\/+/, ''));
    for (let page = '1', pages = 0; page && out.length < max && pages < MAX_LIST_PAGES; pages++) {
      const url = `${this.project(c)}/repository/tree?recursive=true&per_page=100&page=${encodeURIComponent(page)}&path=${folder}&ref=${encodeURIComponent(c.branchOrTag)}`;
      const response = ok(await get(url, this.headers(c)));
      const entries = JSON.parse(response.text()) as { type?: string; path?: string }[];
      for (const e of Array.isArray(entries) ? entries : [])
        if (e.type === 'blob' && typeof e.path === 'string') out.push({ path: e.path });
      page = /^\d+$/.test(response.headers['x-next-page'] ?? '') ? response.headers['x-next-page']! : '';
    }
    return out.slice(0, max);
  },
};

/** Bitbucket's source API: `GET /repositories/{workspace}/{repo}/src/{ref}/{path}` (raw file, or a listing). */
export const bitbucket = {
  headers(c: Bitbucket): Record<string, string> {
    return c.login && c.password ? { authorization: basic(c.login, c.password) } : {};
  },
  url(c: Bitbucket, path: string) {
    return `${trimSlash(c.bitbucketUrl)}/repositories/${encodeURIComponent(c.username)}/${encodeURIComponent(c.repository)}/src/${encodeURIComponent(c.branchOrTag)}/${encodePath(path)}`;
  },
  async file(get: Get, c: Bitbucket, path = c.filepath): Promise<FetchedFile> {
    const response = ok(await get(this.url(c, path), this.headers(c)));
    return {
      content: response.text(),
      metadata: {
        provider_name: 'Bitbucket',
        edit_url: `https://bitbucket.org/${c.username}/${c.repository}/src/${c.branchOrTag}/${path.replace(/^\/+/, '')}?mode=edit`,
      },
    };
  },
  /**
   * The files under a folder, sub-folders included: 100 entries a page, following the listing's `next`
   * page only on the configured Bitbucket (the credentials go nowhere else).
   */
  async list(get: Get, c: Bitbucket, max: number): Promise<ListedFile[]> {
    const out: ListedFile[] = [];
    const origin = new URL(c.bitbucketUrl).origin;
    const urls = [`${this.url(c, `${c.filepath.replace(/\/+$/, '')}/`)}?pagelen=100`];
    for (let pages = 0; urls.length > 0 && out.length < max && pages < MAX_LIST_PAGES * 10; pages++) {
      const body = JSON.parse(ok(await get(urls.shift()!, this.headers(c))).text()) as {
        values?: { type?: string; path?: string }[];
        next?: unknown;
      };
      for (const e of body.values ?? []) {
        if (typeof e.path !== 'string') continue;
        if (e.type === 'commit_file') out.push({ path: e.path });
        else if (e.type === 'commit_directory') urls.push(`${this.url(c, `${e.path}/`)}?pagelen=100`);
      }
      if (typeof body.next === 'string' && URL.canParse(body.next) && new URL(body.next).origin === origin)
        urls.unshift(body.next);
    }
    return out.slice(0, max);
  },
};
