import type { Database, PageRow, UserRow } from '@portico/storage';
import { findChildPages, findPagesOfReference, insertPage, updatePage } from '@portico/storage';
import { invalidField } from '@portico/model';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { SourceFetch } from './fetchers/source-fetch.js';
import { checkPageContent } from './pages.content.js';
import { sourceOf } from './pages.mapper.js';
import type { ImportPagesInput, PageJson } from './pages.schemas.js';
import type { PagesService } from './pages.service.js';

const FILE_TYPES: Record<string, 'MARKDOWN' | 'SWAGGER'> = {
  md: 'MARKDOWN',
  markdown: 'MARKDOWN',
  json: 'SWAGGER',
  yaml: 'SWAGGER',
  yml: 'SWAGGER',
};

/** The page type of a file name (Markdown and OpenAPI files only), as the creation wizard reads them. */
export const pageTypeOfFile = (path: string) => FILE_TYPES[path.split('.').pop()?.toLowerCase() ?? ''];

/**
 * Pages read from their external source: one on demand (`_fetch`), all of a reference (`_fetch` on
 * the list), a repository folder imported as pages (`_import`), and the scheduler's fetches.
 */
export class PagesFetchService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pages: PagesService,
    private readonly source: SourceFetch,
    private readonly now: () => number,
  ) {}

  /** Reads the page's source again and stores its content; the page's audit names the actor. */
  async refresh(row: PageRow, actor: UserRow | undefined): Promise<void> {
    const source = sourceOf(row);
    if (!source) return;
    const fetched = await this.source.fetch(source);
    await checkPageContent(row.type, fetched.content);
    await this.db.transaction().execute(async (trx) => {
      await updatePage(trx, row.id, {
        content: fetched.content,
        metadata: JSON.stringify(fetched.metadata),
        updated_at: this.now(),
        ...(actor ? { last_contributor: actor.id } : {}),
      });
      await this.pages.auditPage(trx, actor, row.reference_id, row.id, 'PAGE_UPDATED');
    });
  }

  /** `POST .../pages/{pageId}/_fetch`: 400 when the page has no source. */
  async fetchOne(referenceId: string, pageId: string, actor: UserRow): Promise<PageJson> {
    const row = await this.pages.row(this.db, referenceId, pageId);
    if (!sourceOf(row)) throw invalidField('source', 'the page has no external source');
    await this.refresh(row, actor);
    return this.pages.get(referenceId, pageId, actor);
  }

  /** `POST .../pages/_fetch`: every page with a source; the first failure is answered. */
  async fetchAll(referenceId: string, actor: UserRow): Promise<void> {
    await this.pages.reader(referenceId, actor);
    const rows = await findPagesOfReference(this.db, this.pages.scope.referenceType, referenceId);
    for (const row of rows.filter((r) => r.source !== null)) await this.refresh(row, actor);
  }

  /**
   * `POST .../pages/_import`: one page per Markdown or OpenAPI file of the source's folder, each with
   * its own source (the file), at the root; a file already imported (same source) is fetched again.
   */
  async import(referenceId: string, actor: UserRow, input: ImportPagesInput): Promise<PageJson[]> {
    await this.pages.reader(referenceId, actor);
    const { config } = this.source.check(input.source);
    const files = (await this.source.list(input.source)).filter((f) => pageTypeOfFile(f.path));
    const existing = await findPagesOfReference(this.db, this.pages.scope.referenceType, referenceId);
    const ids: string[] = [];
    for (const file of files) {
      const source = { type: input.source.type, configuration: { ...config, filepath: file.path } };
      const same = existing.find(
        (p) => p.source !== null && JSON.stringify(sourceOf(p)) === JSON.stringify(source),
      );
      if (same) {
        await this.refresh(same, actor);
        ids.push(same.id);
        continue;
      }
      const type = pageTypeOfFile(file.path)!;
      const fetched = await this.source.fetch(source);
      await checkPageContent(type, fetched.content);
      const id = newId();
      const now = this.now();
      await this.db.transaction().execute(async (trx) => {
        const order = (await findChildPages(trx, this.pages.scope.referenceType, referenceId, null)).length;
        await insertPage(trx, {
          id,
          reference_type: this.pages.scope.referenceType,
          reference_id: referenceId,
          name: file.path
            .split('/')
            .pop()!
            .replace(/\.[^.]+$/, ''),
          type,
          content: fetched.content,
          last_contributor: actor.id,
          order,
          published: input.published ? 1 : 0,
          homepage: 0,
          parent_id: null,
          source: JSON.stringify(source),
          configuration: JSON.stringify(input.configuration ?? {}),
          excluded_groups: JSON.stringify(input.excluded_groups ?? []),
          metadata: JSON.stringify(fetched.metadata),
          next_fetch_at: this.source.nextFetchAt(source, now),
          created_at: now,
          updated_at: now,
        });
        await this.pages.auditPage(trx, actor, referenceId, id, 'PAGE_CREATED');
      });
      ids.push(id);
    }
    return Promise.all(ids.map((id) => this.pages.get(referenceId, id, actor)));
  }
}
