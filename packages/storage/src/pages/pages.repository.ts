import type { Executor } from '../database.js';
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
