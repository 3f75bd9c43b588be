import type { Database, Executor, PageRow, PageRowUpdate, UserRow } from '@portico/storage';
import {
  clearHomepageExcept,
  deletePageById,
  findChildPages,
  findGroupsByIds,
  findPageById,
  findPagesOfReference,
  insertPage,
  updatePage,
} from '@portico/storage';
import { forbidden, invalidField, notFound } from '@portico/model';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { PageReader, PageScope } from './pages.access.js';
import { isVisible, pageReader } from './pages.access.js';
import { checkPageContent } from './pages.content.js';
import { excludedGroupsOf, sourceOf, toPageJson, withStoredSecrets } from './pages.mapper.js';
import type { NewPageInput, PageJson, PageListQuery, PageSource, PatchPageInput } from './pages.schemas.js';
import type { SourceFetch } from './fetchers/source-fetch.js';

export const CONTENT_READ_ONLY = 'the content comes from the external source of the page and is read-only';
export const FOLDER_NOT_HOMEPAGE = 'a folder can not be the homepage';
export const PARENT_NOT_FOLDER = 'the parent must be a folder of the same documentation';
export const PARENT_CYCLE = 'a folder can not be moved into itself or one of its sub-folders';
export const ROOT_EXISTS = 'a ROOT page already exists in this documentation (there is one at most)';
export const ROOT_SOURCE = "the ROOT page's source is the folder an import keeps on it: import the folder";

export interface PagesDeps {
  db: Kysely<Database>;
  audit: AuditService;
  permissions: PermissionService;
  fetch: SourceFetch;
  now: () => number;
}

const isFolder = (type: string) => type === 'FOLDER' || type === 'ROOT';

/**
 * The documentation pages of an API or of the portal (the scope): list, read, create, update, move,
 * reorder, publish and remove; one homepage per scope; a page fetched from an external source has a
 * read-only content. Permissions to write are checked by the routes; reads filter by `isVisible`.
 */
export class PagesService {
  constructor(
    private readonly deps: PagesDeps,
    readonly scope: PageScope,
  ) {}

  async reader(referenceId: string, user: UserRow | undefined): Promise<PageReader> {
    const reader = await pageReader(this.deps.db, this.deps.permissions, this.scope, referenceId, user);
    if (reader === 'forbidden') throw forbidden(`${this.scope.permissionPrefix}-documentation-r`);
    return reader;
  }

  private json(reader: PageReader, row: PageRow): PageJson {
    return toPageJson(row, { withSourceConfiguration: reader.canManage });
  }

  /** The page of this scope and reference, or 404. */
  async row(db: Executor, referenceId: string, pageId: string): Promise<PageRow> {
    const row = await findPageById(db, pageId);
    if (!row || row.reference_type !== this.scope.referenceType || row.reference_id !== referenceId)
      throw notFound('Page', pageId);
    return row;
  }

  /** The pages the reader sees, filtered as the query says, in their order. */
  async list(referenceId: string, user: UserRow | undefined, query: PageListQuery): Promise<PageJson[]> {
    const reader = await this.reader(referenceId, user);
    let rows = await findPagesOfReference(this.deps.db, this.scope.referenceType, referenceId, {
      ...(query.type ? { type: query.type } : {}),
      ...(query.published ? { published: query.published === 'true' } : {}),
    });
    if (query.parent !== undefined) rows = rows.filter((r) => r.parent_id === query.parent);
    else if (query.root === 'true') rows = rows.filter((r) => r.parent_id === null);
    if (query.homepage) rows = rows.filter((r) => (r.homepage === 1) === (query.homepage === 'true'));
    if (query.name !== undefined) rows = rows.filter((r) => r.name === query.name);
    return rows.filter((r) => isVisible(reader, r)).map((r) => this.json(reader, r));
  }

  /** One page; 403 when it is hidden from the reader (unpublished, or an excluded group). */
  async get(referenceId: string, pageId: string, user: UserRow | undefined): Promise<PageJson> {
    const reader = await this.reader(referenceId, user);
    const row = await this.row(this.deps.db, referenceId, pageId);
    if (!isVisible(reader, row)) throw forbidden(`${this.scope.permissionPrefix}-documentation-r`);
    return this.json(reader, row);
  }

  /** The excluded groups, each existing; one already on the page but since deleted is dropped. */
  private async checkGroups(
    db: Executor,
    groups: string[] | undefined,
    stored: string[] = [],
  ): Promise<string> {
    const ids = [...new Set(groups ?? [])];
    const found = new Set((await findGroupsByIds(db, ids)).map((g) => g.id));
    const missing = ids.find((id) => !found.has(id) && !stored.includes(id));
    if (missing) throw invalidField('excluded_groups', `the group [${missing}] does not exist`);
    return JSON.stringify(ids.filter((id) => found.has(id)));
  }

  /** The parent folder: a folder of this scope and reference, never the page itself or a sub-folder. */
  private async checkParent(db: Executor, referenceId: string, parentId: string | null, pageId?: string) {
    if (parentId === null) return;
    const parent = await findPageById(db, parentId);
    if (
      !parent ||
      parent.reference_type !== this.scope.referenceType ||
      parent.reference_id !== referenceId ||
      !isFolder(parent.type)
    )
      throw invalidField('parentId', PARENT_NOT_FOLDER);
    for (let at: PageRow | undefined = parent, hops = 0; at && hops < 1000; hops++) {
      if (at.id === pageId) throw invalidField('parentId', PARENT_CYCLE);
      at = at.parent_id ? await findPageById(db, at.parent_id) : undefined;
    }
  }

  /** The content a source gives, and the page metadata (edit link, provider) it brings. */
  private async fromSource(source: PageSource) {
    return this.deps.fetch.fetch(source);
  }

  /** `POST .../pages`: a new page at the end of its folder unless an order is given. */
  async create(referenceId: string, actor: UserRow, input: NewPageInput): Promise<PageJson> {
    const db = this.deps.db;
    const reader = await this.reader(referenceId, actor);
    if (isFolder(input.type) && input.homepage) throw invalidField('homepage', FOLDER_NOT_HOMEPAGE);
    if (isFolder(input.type) && input.source) throw invalidField('source', 'a folder has no source');
    if (
      input.type === 'ROOT' &&
      (await findPagesOfReference(db, this.scope.referenceType, referenceId, { type: 'ROOT' })).length > 0
    )
      throw invalidField('type', ROOT_EXISTS);
    const parentId = input.parentId || null;
    await this.checkParent(db, referenceId, parentId);
    const excluded = await this.checkGroups(db, input.excluded_groups);
    let content = input.content ?? null;
    let metadata = {};
    let nextFetch: number | null = null;
    if (input.source) {
      this.deps.fetch.check(input.source);
      const fetched = await this.fromSource(input.source);
      content = fetched.content;
      metadata = fetched.metadata;
      nextFetch = this.deps.fetch.nextFetchAt(input.source, this.deps.now());
    }
    await checkPageContent(input.type, content);
    const id = newId();
    const now = this.deps.now();
    await db.transaction().execute(async (trx) => {
      const siblings = await findChildPages(trx, this.scope.referenceType, referenceId, parentId);
      await insertPage(trx, {
        id,
        reference_type: this.scope.referenceType,
        reference_id: referenceId,
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        content,
        last_contributor: actor.id,
        order: siblings.length,
        published: input.published ? 1 : 0,
        homepage: input.homepage ? 1 : 0,
        parent_id: parentId,
        source: input.source ? JSON.stringify(input.source) : null,
        configuration: JSON.stringify(input.configuration ?? {}),
        excluded_groups: excluded,
        metadata: JSON.stringify(metadata),
        next_fetch_at: nextFetch,
        created_at: now,
        updated_at: now,
      });
      if (input.order !== undefined) await this.reorder(trx, referenceId, id, parentId, input.order);
      if (input.homepage) await clearHomepageExcept(trx, this.scope.referenceType, referenceId, id);
      await this.auditPage(trx, actor, referenceId, id, 'PAGE_CREATED');
    });
    return this.json(reader, await this.row(db, referenceId, id));
  }

  /** Puts a page at `order` among its siblings; the siblings take the other places, 0 to n-1. */
  private async reorder(
    trx: Executor,
    referenceId: string,
    id: string,
    parentId: string | null,
    order: number,
  ) {
    const siblings = (await findChildPages(trx, this.scope.referenceType, referenceId, parentId)).filter(
      (p) => p.id !== id,
    );
    const ids = siblings.map((p) => p.id);
    ids.splice(Math.min(Math.max(order, 0), ids.length), 0, id);
    await this.renumber(trx, ids);
  }

  private async renumber(trx: Executor, ids: string[]) {
    const rows = await Promise.all(ids.map((id) => findPageById(trx, id)));
    for (const [index, id] of ids.entries()) {
      if (rows[index]?.order !== index) await updatePage(trx, id, { order: index });
    }
  }

  /**
   * `PUT` (the whole page) and `PATCH` (some fields): rename, move (parentId), reorder, publish, the
   * homepage flag, the content (read-only while the page has a source), the source (fetched at once),
   * the configuration and the excluded groups. The type never changes.
   */
  async update(
    referenceId: string,
    pageId: string,
    actor: UserRow,
    input: PatchPageInput,
    replace: boolean,
  ): Promise<PageJson> {
    const db = this.deps.db;
    const reader = await this.reader(referenceId, actor);
    const before = await this.row(db, referenceId, pageId);
    if (input.type !== undefined && input.type !== before.type)
      throw invalidField('type', 'the type of a page can not be changed');
    const stored = sourceOf(before);
    const source =
      input.source !== undefined && input.source !== null
        ? withStoredSecrets(input.source, stored)
        : input.source === null || replace
          ? null
          : stored;
    const homepage = input.homepage ?? (replace ? false : before.homepage === 1);
    const sourceChanged = JSON.stringify(source) !== JSON.stringify(sourceOf(before));
    if (isFolder(before.type) && homepage) throw invalidField('homepage', FOLDER_NOT_HOMEPAGE);
    // The ROOT page keeps the source of its import (set by `_import`), or drops it.
    if (before.type === 'ROOT' && source && sourceChanged) throw invalidField('source', ROOT_SOURCE);
    if (before.type === 'FOLDER' && source) throw invalidField('source', 'a folder has no source');
    const parentId =
      input.parentId !== undefined ? input.parentId || null : replace ? null : before.parent_id;
    if (parentId !== before.parent_id) await this.checkParent(db, referenceId, parentId, pageId);
    const changes: PageRowUpdate = { last_contributor: actor.id, updated_at: this.deps.now() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined || replace) changes.description = input.description ?? null;
    if (input.published !== undefined || replace) changes.published = input.published ? 1 : 0;
    changes.homepage = homepage ? 1 : 0;
    changes.parent_id = parentId;
    if (input.configuration !== undefined || replace)
      changes.configuration = JSON.stringify(input.configuration ?? {});
    if (input.excluded_groups !== undefined || replace)
      changes.excluded_groups = await this.checkGroups(db, input.excluded_groups, excludedGroupsOf(before));
    if (source) {
      if (!sourceChanged && input.content !== undefined && input.content !== before.content)
        throw invalidField('content', CONTENT_READ_ONLY);
      if (sourceChanged) {
        this.deps.fetch.check(source);
        const fetched = await this.fromSource(source);
        await checkPageContent(before.type, fetched.content);
        changes.content = fetched.content;
        changes.metadata = JSON.stringify(fetched.metadata);
        changes.source = JSON.stringify(source);
        changes.next_fetch_at = this.deps.fetch.nextFetchAt(source, this.deps.now());
      }
    } else {
      if (before.source !== null) {
        changes.source = null;
        changes.metadata = '{}';
        changes.next_fetch_at = null;
      }
      if (input.content !== undefined || replace) {
        await checkPageContent(before.type, input.content);
        changes.content = input.content ?? null;
      }
    }
    await db.transaction().execute(async (trx) => {
      await updatePage(trx, pageId, changes);
      if (parentId !== before.parent_id) {
        const left = await findChildPages(trx, this.scope.referenceType, referenceId, before.parent_id);
        await this.renumber(
          trx,
          left.map((p) => p.id),
        );
        const order = input.order ?? Number.MAX_SAFE_INTEGER;
        await this.reorder(trx, referenceId, pageId, parentId, order);
      } else if (input.order !== undefined && input.order !== before.order) {
        await this.reorder(trx, referenceId, pageId, parentId, input.order);
      }
      if (homepage) await clearHomepageExcept(trx, this.scope.referenceType, referenceId, pageId);
      await this.auditPage(trx, actor, referenceId, pageId, 'PAGE_UPDATED');
    });
    return this.json(reader, await this.row(db, referenceId, pageId));
  }

  /** `DELETE`: the pages of a removed folder move to the root (as Gravitee 1.x). */
  async remove(referenceId: string, pageId: string, actor: UserRow): Promise<void> {
    await this.reader(referenceId, actor);
    const row = await this.row(this.deps.db, referenceId, pageId);
    await this.deps.db.transaction().execute(async (trx) => {
      await deletePageById(trx, pageId);
      if (isFolder(row.type)) {
        const children = await findChildPages(trx, this.scope.referenceType, referenceId, pageId);
        const root = await findChildPages(trx, this.scope.referenceType, referenceId, null);
        for (const child of children) await updatePage(trx, child.id, { parent_id: null });
        await this.renumber(
          trx,
          [...root, ...children].map((p) => p.id),
        );
      }
      const left = await findChildPages(trx, this.scope.referenceType, referenceId, row.parent_id);
      await this.renumber(
        trx,
        left.map((p) => p.id),
      );
      await this.auditPage(trx, actor, referenceId, pageId, 'PAGE_DELETED');
    });
  }

  async auditPage(
    trx: Executor,
    actor: UserRow | undefined,
    referenceId: string,
    pageId: string,
    event: string,
  ) {
    await this.deps.audit.record(trx, {
      referenceType: this.scope.referenceType,
      referenceId,
      userId: actor?.id,
      event,
      properties: { PAGE: pageId },
    });
  }
}
