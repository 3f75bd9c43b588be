import type { Database, Executor, PageRow, UserRow } from '@portico/storage';
import { findChildPages, findPagesOfReference, insertPage, updatePage } from '@portico/storage';
import { invalidField } from '@portico/model';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { ListedFile } from './fetchers/git-services.js';
import type { SourceFetch } from './fetchers/source-fetch.js';
import { checkPageContent } from './pages.content.js';
import { excludedGroupsOf, SENSITIVE_SOURCE_KEYS, sourceOf, withStoredSecrets } from './pages.mapper.js';
import type { ImportPagesInput, PageJson, PageSource } from './pages.schemas.js';
import type { PagesService } from './pages.service.js';
import { pathSegments, planImport } from './pages-import.tree.js';

/** What an import makes pages with: the source's folder, and the settings of the new pages. */
interface ImportRun {
  source: PageSource;
  config: Record<string, unknown>;
  /** The folder the files' tree goes into (the ROOT page), null: the documentation's root. */
  parentId: string | null;
  /** Set on a ROOT page's import: its files are fetched with the ROOT page, not on their own. */
  withoutCron: boolean;
  only?: 'MARKDOWN' | 'SWAGGER';
  published: boolean;
  configuration: string;
  excludedGroups: string;
  contributor: string | null;
}

/** Same file of the same repository: the source but its secrets and its schedule. */
function fileKey(source: PageSource | null): string | undefined {
  if (!source) return undefined;
  const entries = Object.entries(source.configuration)
    .filter(([key]) => key !== 'fetchCron' && !SENSITIVE_SOURCE_KEYS.has(key))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([source.type, entries]);
}

/** The name a new ROOT page takes: the imported folder's, else the repository's. */
function rootName(config: Record<string, unknown>): string {
  const folder = pathSegments(String(config.filepath ?? ''))?.pop();
  return folder ?? String(config.repository ?? config.project ?? 'Root').slice(0, 255);
}

/**
 * Pages read from their external source: one on demand (`_fetch`), all of a reference (`_fetch` on
 * the list), a repository folder imported as pages and folders (`_import`), and the scheduler's
 * fetches. An import of type ROOT is kept on the documentation's ROOT page: its source is the
 * repository folder, and fetching the ROOT page imports the folder again (new files included).
 */
export class PagesFetchService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pages: PagesService,
    private readonly source: SourceFetch,
    private readonly now: () => number,
  ) {}

  /**
   * Reads the page's source again and stores its content (a ROOT page imports its folder again);
   * the page's audit names the actor. Answers the pages the fetch touched.
   */
  async refresh(row: PageRow, actor: UserRow | undefined): Promise<string[]> {
    const source = sourceOf(row);
    if (!source) return [];
    if (row.type === 'ROOT') return this.reimport(row, source, actor);
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
    return [row.id];
  }

  /** `POST .../pages/{pageId}/_fetch`: 400 when the page has no source. */
  async fetchOne(referenceId: string, pageId: string, actor: UserRow): Promise<PageJson> {
    const row = await this.pages.row(this.db, referenceId, pageId);
    if (!sourceOf(row)) throw invalidField('source', 'the page has no external source');
    await this.refresh(row, actor);
    return this.pages.get(referenceId, pageId, actor);
  }

  /**
   * `POST .../pages/_fetch`: every page with a source, the ROOT page's import first (a page it
   * fetched is not fetched twice); the first failure is answered.
   */
  async fetchAll(referenceId: string, actor: UserRow): Promise<void> {
    await this.pages.reader(referenceId, actor);
    const rows = await findPagesOfReference(this.db, this.pages.scope.referenceType, referenceId);
    const done = new Set<string>();
    const withSource = rows.filter((r) => r.source !== null);
    for (const row of withSource.filter((r) => r.type === 'ROOT'))
      for (const id of await this.refresh(row, actor)) done.add(id);
    for (const row of withSource.filter((r) => r.type !== 'ROOT' && !done.has(r.id)))
      await this.refresh(row, actor);
  }

  /**
   * `POST .../pages/_import`: one page per Markdown or OpenAPI file of the source's folder (of the
   * `type` given, MARKDOWN or SWAGGER), each with its own source (the file), under folders that
   * recreate the repository's sub-folders. ROOT keeps the import on the documentation's ROOT page
   * (created when there is none) and puts the tree under it. A folder already there (same name and
   * parent) is reused; a file already imported (same repository file) is fetched again. Answers the
   * folders created and the pages created or fetched.
   */
  async import(referenceId: string, actor: UserRow, input: ImportPagesInput): Promise<PageJson[]> {
    await this.pages.reader(referenceId, actor);
    const common = {
      published: input.published ?? false,
      configuration: JSON.stringify(input.configuration ?? {}),
      excludedGroups: JSON.stringify(input.excluded_groups ?? []),
      contributor: actor.id,
    };
    const { referenceType } = this.pages.scope;
    const [root] = await findPagesOfReference(this.db, referenceType, referenceId, { type: 'ROOT' });
    // A `********` secret sent back keeps the one the ROOT page holds.
    const source =
      input.type === 'ROOT' ? withStoredSecrets(input.source, root ? sourceOf(root) : null) : input.source;
    const { config } = this.source.check(source);
    // Listed first: a folder that can not be read leaves the ROOT page as it was.
    const listed = await this.source.list(source);
    let ids: string[];
    if (input.type === 'ROOT') {
      const checked = { type: source.type, configuration: config };
      const kept = await this.keepOnRoot(referenceId, actor, root, checked, common);
      ids = await this.importTree(referenceId, actor, this.rootRun(kept, checked, actor), listed);
    } else {
      const only = input.type === 'MARKDOWN' || input.type === 'SWAGGER' ? input.type : undefined;
      const run = { ...common, source, config, parentId: null, withoutCron: false };
      ids = await this.importTree(referenceId, actor, only ? { ...run, only } : run, listed);
    }
    return Promise.all(ids.map((id) => this.pages.get(referenceId, id, actor)));
  }

  /**
   * The documentation's ROOT page, created when there is none, with the import's source (a `********`
   * secret keeps the stored one) and settings: its pages are published as it is, with its
   * configuration and excluded groups.
   */
  private async keepOnRoot(
    referenceId: string,
    actor: UserRow,
    existing: PageRow | undefined,
    checked: PageSource,
    common: Pick<ImportRun, 'published' | 'configuration' | 'excludedGroups'>,
  ): Promise<PageRow> {
    const { referenceType } = this.pages.scope;
    const now = this.now();
    const settings = {
      source: JSON.stringify(checked),
      next_fetch_at: this.source.nextFetchAt(checked, now),
      published: common.published ? 1 : 0,
      configuration: common.configuration,
      excluded_groups: common.excludedGroups,
      last_contributor: actor.id,
      updated_at: now,
    };
    const id = existing?.id ?? newId();
    await this.db.transaction().execute(async (trx) => {
      if (existing) {
        await updatePage(trx, id, settings);
      } else {
        const order = (await findChildPages(trx, referenceType, referenceId, null)).length;
        await insertPage(trx, {
          ...settings,
          id,
          reference_type: referenceType,
          reference_id: referenceId,
          name: rootName(checked.configuration),
          type: 'ROOT',
          content: null,
          order,
          homepage: 0,
          parent_id: null,
          metadata: '{}',
          created_at: now,
        });
      }
      await this.pages.auditPage(trx, actor, referenceId, id, existing ? 'PAGE_UPDATED' : 'PAGE_CREATED');
    });
    return this.pages.row(this.db, referenceId, id);
  }

  /** The ROOT page's import: its folder, under it, with its settings. */
  private rootRun(root: PageRow, source: PageSource, actor: UserRow | undefined): ImportRun {
    return {
      source,
      config: source.configuration,
      parentId: root.id,
      withoutCron: true,
      published: root.published === 1,
      configuration: root.configuration,
      excludedGroups: JSON.stringify(excludedGroupsOf(root)),
      contributor: actor?.id ?? root.last_contributor,
    };
  }

  /** Imports the ROOT page's folder again. */
  private async reimport(root: PageRow, source: PageSource, actor: UserRow | undefined) {
    const { config } = this.source.check(source);
    const checked = { type: source.type, configuration: config };
    return this.importTree(
      root.reference_id,
      actor,
      this.rootRun(root, checked, actor),
      await this.source.list(checked),
    );
  }

  private async importTree(
    referenceId: string,
    actor: UserRow | undefined,
    run: ImportRun,
    listed: ListedFile[],
  ): Promise<string[]> {
    const files = planImport(listed, String(run.config.filepath ?? ''), run.only);
    const { referenceType } = this.pages.scope;
    const existing = await findPagesOfReference(this.db, referenceType, referenceId);
    const folderIds = new Map<string, string | null>([['', run.parentId]]);
    const ids: string[] = [];
    for (const file of files) {
      let parentId = run.parentId;
      for (const [depth, name] of file.folders.entries()) {
        const path = file.folders.slice(0, depth + 1).join('/');
        if (!folderIds.has(path)) {
          const folder = await this.folder(referenceId, actor, run, parentId, name);
          if (folder.created) ids.push(folder.id);
          folderIds.set(path, folder.id);
        }
        parentId = folderIds.get(path)!;
      }
      const { fetchCron, ...rest } = run.config;
      const configuration = {
        ...rest,
        filepath: file.path,
        ...(fetchCron && !run.withoutCron ? { fetchCron } : {}),
      };
      const source: PageSource = { type: run.source.type, configuration };
      const key = fileKey(source);
      const same = existing.find((p) => p.type !== 'ROOT' && fileKey(sourceOf(p)) === key);
      if (same) {
        if (JSON.stringify(sourceOf(same)) !== JSON.stringify(source)) {
          const changes = {
            source: JSON.stringify(source),
            next_fetch_at: this.source.nextFetchAt(source, this.now()),
          };
          await updatePage(this.db, same.id, changes);
          Object.assign(same, changes);
        }
        await this.refresh(same, actor);
        ids.push(same.id);
        continue;
      }
      ids.push(await this.filePage(referenceId, actor, run, parentId, file, source));
    }
    return ids;
  }

  /** The folder of that name under the parent: the one there, or a new one at the end of the parent. */
  private async folder(
    referenceId: string,
    actor: UserRow | undefined,
    run: ImportRun,
    parentId: string | null,
    name: string,
  ): Promise<{ id: string; created: boolean }> {
    const { referenceType } = this.pages.scope;
    return this.db.transaction().execute(async (trx) => {
      const siblings = await findChildPages(trx, referenceType, referenceId, parentId);
      const there = siblings.find((p) => p.type === 'FOLDER' && p.name === name);
      if (there) return { id: there.id, created: false };
      const id = newId();
      await this.insert(trx, referenceId, run, {
        id,
        name,
        type: 'FOLDER',
        parent_id: parentId,
        order: siblings.length,
      });
      await this.pages.auditPage(trx, actor, referenceId, id, 'PAGE_CREATED');
      return { id, created: true };
    });
  }

  /** A new page of an imported file, at the end of its folder. */
  private async filePage(
    referenceId: string,
    actor: UserRow | undefined,
    run: ImportRun,
    parentId: string | null,
    file: { type: string; name: string },
    source: PageSource,
  ): Promise<string> {
    const fetched = await this.source.fetch(source);
    await checkPageContent(file.type, fetched.content);
    const id = newId();
    await this.db.transaction().execute(async (trx) => {
      const order = (await findChildPages(trx, this.pages.scope.referenceType, referenceId, parentId)).length;
      await this.insert(trx, referenceId, run, {
        id,
        name: file.name,
        type: file.type,
        parent_id: parentId,
        order,
        content: fetched.content,
        source: JSON.stringify(source),
        metadata: JSON.stringify(fetched.metadata),
        next_fetch_at: this.source.nextFetchAt(source, this.now()),
      });
      await this.pages.auditPage(trx, actor, referenceId, id, 'PAGE_CREATED');
    });
    return id;
  }

  private async insert(
    trx: Executor,
    referenceId: string,
    run: ImportRun,
    page: Pick<PageRow, 'id' | 'name' | 'type' | 'parent_id' | 'order'> &
      Partial<Pick<PageRow, 'content' | 'source' | 'metadata' | 'next_fetch_at'>>,
  ) {
    const now = this.now();
    await insertPage(trx, {
      content: null,
      source: null,
      metadata: '{}',
      next_fetch_at: null,
      ...page,
      reference_type: this.pages.scope.referenceType,
      reference_id: referenceId,
      last_contributor: run.contributor,
      published: run.published ? 1 : 0,
      homepage: 0,
      configuration: page.type === 'FOLDER' ? '{}' : run.configuration,
      excluded_groups: run.excludedGroups,
      created_at: now,
      updated_at: now,
    });
  }
}
