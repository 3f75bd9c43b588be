import type { Database } from '@portico/storage';
import { claimPageFetch, findPagesDueForFetch } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { ScheduledJob } from '../scheduler/scheduler.js';
import type { SourceFetch } from './fetchers/source-fetch.js';
import { sourceOf } from './pages.mapper.js';
import type { PagesFetchService } from './pages-fetch.service.js';

export interface PageFetchJobDeps {
  db: Kysely<Database>;
  source: SourceFetch;
  /** The fetch service of each scope, by reference type. */
  fetchers: Record<string, PagesFetchService>;
  now(): number;
  log: { warn(details: object, message: string): void };
}

/**
 * Fetches the pages whose source has a `fetchCron` when their time comes (a ROOT page imports its
 * folder again). Each fetch is claimed in
 * the database first (the next time moves only once), so it runs once whatever the number of
 * management processes; a failing fetch is logged and the page keeps its content.
 */
export function pageFetchJob(deps: PageFetchJobDeps): ScheduledJob {
  return {
    name: 'page-fetchers',
    async run() {
      const now = deps.now();
      for (const row of await findPagesDueForFetch(deps.db, now)) {
        const source = sourceOf(row);
        const next = source ? deps.source.nextFetchAt(source, now) : null;
        if (!(await claimPageFetch(deps.db, row.id, row.next_fetch_at!, next))) continue;
        const service = deps.fetchers[row.reference_type];
        try {
          if (service) await service.refresh(row, undefined);
        } catch (error) {
          deps.log.warn(
            { page: row.id, reason: error instanceof Error ? error.message : String(error) },
            'scheduled page fetch failed; the page keeps its content',
          );
        }
      }
    },
  };
}
