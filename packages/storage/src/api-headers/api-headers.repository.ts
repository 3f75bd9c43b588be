import type { Executor } from '../database.js';
import type { ApiHeaderRow, NewApiHeaderRow } from './api-headers.table.js';

/** Every header in its order. */
export async function findAllApiHeaders(db: Executor): Promise<ApiHeaderRow[]> {
  return db.selectFrom('api_headers').selectAll().orderBy('order').orderBy('id').execute();
}

export async function insertApiHeader(db: Executor, row: NewApiHeaderRow): Promise<void> {
  await db.insertInto('api_headers').values(row).execute();
}

export async function updateApiHeader(
  db: Executor,
  id: string,
  changes: { name?: string; value?: string; order?: number; updated_at: number },
): Promise<number> {
  const result = await db.updateTable('api_headers').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteApiHeader(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('api_headers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
