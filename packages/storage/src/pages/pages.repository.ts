import type { Executor } from '../database.js';
import { jsonListHolds } from '../sql-text.js';
import type { NewPageRow, PageRow, PageRowUpdate } from './pages.table.js';

export async function findPageById(db: Executor, id: string): Promise<PageRow | undefined> {
  return db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface PageFilter {
  type?: string;
  published?: boolean;
}

/** The pages of an API (or of the portal), in their order. */
export async function findPagesOfReference(
  db: Executor,
  referenceType: string,
  referenceId: string,
  filter: PageFilter = {},
): Promise<PageRow[]> {
  let q = db
    .selectFrom('pages')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  if (filter.published !== undefined) q = q.where('published', '=', filter.published ? 1 : 0);
  return q.orderBy('order').orderBy('created_at').orderBy('id').execute();
}

export async function insertPage(db: Executor, row: NewPageRow): Promise<void> {
  await db.insertInto('pages').values(row).execute();
}

/** Changes some columns of a page; answers the number of rows changed. */
export async function updatePage(db: Executor, id: string, changes: PageRowUpdate): Promise<number> {
  const result = await db.updateTable('pages').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deletePagesOfReference(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('pages')
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deletePageById(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('pages').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The pages of a reference under one folder (null: at the root), in their order. */
export async function findChildPages(
  db: Executor,
  referenceType: string,
  referenceId: string,
  parentId: string | null,
): Promise<PageRow[]> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
    .orderBy('order')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Clears the homepage flag of every page of a reference but one. */
export async function clearHomepageExcept(
  db: Executor,
  referenceType: string,
  referenceId: string,
  exceptId: string,
): Promise<void> {
  await db
    .updateTable('pages')
    .set({ homepage: 0 })
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .where('id', '!=', exceptId)
    .where('homepage', '=', 1)
    .execute();
}

/** Pages with a scheduled fetch due at `now`. */
export async function findPagesDueForFetch(db: Executor, now: number, limit = 50): Promise<PageRow[]> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('next_fetch_at', 'is not', null)
    .where('next_fetch_at', '<=', now)
    .orderBy('next_fetch_at')
    .limit(limit)
    .execute();
}

/**
 * Claims one scheduled fetch of a page: moves its next fetch from the value read to `next`, only if
 * nobody moved it meanwhile. True when this caller won.
 */
export async function claimPageFetch(db: Executor, id: string, seen: number, next: number | null) {
  const result = await db
    .updateTable('pages')
    .set({ next_fetch_at: next })
    .where('id', '=', id)
    .where('next_fetch_at', '=', seen)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Takes a deleted group out of the excluded groups of every page; answers the number of pages changed. */
export async function removeExcludedGroupFromPages(
  db: Executor,
  groupId: string,
  now: number,
): Promise<number> {
  const rows = await db
    .selectFrom('pages')
    .select(['id', 'excluded_groups'])
    .where(jsonListHolds('pages.excluded_groups', groupId))
    .execute();
  for (const row of rows) {
    const groups = (JSON.parse(row.excluded_groups) as string[]).filter((g) => g !== groupId);
    await db
      .updateTable('pages')
      .set({ excluded_groups: JSON.stringify(groups), updated_at: now })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}
