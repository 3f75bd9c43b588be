import type { OutboundPolicy } from '@portico/outbound';
import { OutboundError, outboundFetch } from '@portico/outbound';
import { DomainError, invalidField } from '@portico/model';
import type { PageSource } from '../pages.schemas.js';
import { MAX_PAGE_CONTENT_BYTES } from '../pages.schemas.js';
import { nextCronTime } from './cron.js';
import type { FetcherId } from './fetchers.catalog.js';
import { FETCHERS, IMPORT_FETCHERS } from './fetchers.catalog.js';
import type { FetchedFile, Get, ListedFile } from './git-services.js';
import { SourceStatusError, bitbucket, github, gitlab } from './git-services.js';

export const FETCH_FAILED = 'The content could not be fetched from the external source';
export const fetchFailed = (reason: string) =>
  new DomainError(400, `${FETCH_FAILED}: ${reason}`, 'PAGE_FETCH_FAILED', { field: 'source' });

/** Files an import reads at most from one folder (each one is a request to the source). */
export const MAX_IMPORTED_FILES = 200;

export interface SourceFetchOptions {
  policy: OutboundPolicy;
  /** For one request (the spec's 30 s). */
  timeoutMs?: number;
  log: { warn(details: object, message: string): void };
}

type Checked = { id: FetcherId; config: Record<string, unknown> };

/**
 * Reads pages' content from their external source (http(s) URL, GitHub, GitLab, Bitbucket), every
 * request through the outbound-URL guard, within the time and size limits of the page content.
 */
export class SourceFetch {
  constructor(private readonly options: SourceFetchOptions) {}

  /** The source's fetcher and its configuration, checked; 400 naming the field otherwise. */
  check(source: PageSource): Checked {
    const fetcher = FETCHERS.find((f) => f.id === source.type);
    if (!fetcher)
      throw invalidField(
        'source.type',
        `unknown fetcher [${source.type}]: ${FETCHERS.map((f) => f.id).join(', ')}`,
      );
    const parsed = fetcher.config.safeParse(source.configuration);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key =
        issue.path.length > 0 ? issue.path.join('.') : String((issue as { keys?: string[] }).keys?.[0] ?? '');
      throw invalidField(`source.configuration${key ? `.${key}` : ''}`, issue.message);
    }
    const cron = (parsed.data as { fetchCron?: string }).fetchCron;
    if (cron && nextCronTime(cron, Date.now()) === undefined)
      throw invalidField('source.configuration.fetchCron', 'not a valid cron expression');
    return { id: fetcher.id, config: parsed.data as Record<string, unknown> };
  }

  /** When the scheduler fetches a page with this source next; null without `fetchCron`. */
  nextFetchAt(source: PageSource, now: number): number | null {
    const cron = source.configuration.fetchCron;
    if (typeof cron !== 'string' || cron.trim() === '') return null;
    return nextCronTime(cron, now) ?? null;
  }

  private get: Get = async (url, headers) => {
    return outboundFetch(url, {
      policy: this.options.policy,
      maxBytes: Math.ceil(MAX_PAGE_CONTENT_BYTES * 1.4) + 4096,
      timeoutMs: this.options.timeoutMs ?? 30_000,
      headers,
      accept: headers.accept ?? 'application/json, text/plain, */*;q=0.8',
    });
  };

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if (error instanceof OutboundError) {
        this.options.log.warn({ failure: error.failure, detail: error.detail }, 'page source fetch refused');
        if (error.failure === 'TOO_LARGE') throw fetchFailed('the file is too large');
        throw fetchFailed('the address is not reachable or not allowed');
      }
      if (error instanceof SourceStatusError) throw fetchFailed(error.message);
      this.options.log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'page source fetch failed',
      );
      throw fetchFailed('the source did not answer as expected');
    }
  }

  /** The content of the source's file, and the page metadata it brings (edit link, provider). */
  async fetch(source: PageSource, path?: string): Promise<FetchedFile> {
    const { id, config } = this.check(source);
    return this.guarded(async () => {
      switch (id) {
        case 'http-fetcher': {
          const response = await this.get(String(config.url), {});
          if (response.status < 200 || response.status > 299) throw new SourceStatusError(response.status);
          return { content: response.text(), metadata: {} };
        }
        case 'github-fetcher':
          return github.file(this.get, config as never, path);
        case 'gitlab-fetcher':
          return gitlab.file(this.get, config as never, path);
        case 'bitbucket-fetcher':
          return bitbucket.file(this.get, config as never, path);
      }
    });
  }

  /** The files of the source's folder (`_import`), at most MAX_IMPORTED_FILES. */
  async list(source: PageSource): Promise<ListedFile[]> {
    const { id, config } = this.check(source);
    if (!IMPORT_FETCHERS.includes(id))
      throw invalidField('source.type', 'this fetcher can not import a folder');
    return this.guarded(async () => {
      if (id === 'github-fetcher') return github.list(this.get, config as never, MAX_IMPORTED_FILES);
      if (id === 'gitlab-fetcher') return gitlab.list(this.get, config as never, MAX_IMPORTED_FILES);
      return bitbucket.list(this.get, config as never, MAX_IMPORTED_FILES);
    });
  }
}
