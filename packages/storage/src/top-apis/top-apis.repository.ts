import type { Executor } from '../database.js';
import type { TopApiRow } from './top-apis.table.js';

/** The top APIs in their order. */
export async function findTopApis(db: Executor): Promise<TopApiRow[]> {
  return db.selectFrom('top_apis').selectAll().orderBy('order').orderBy('api_id').execute();
}

/** Replaces the top APIs by this ordered list. */
export async function replaceTopApis(db: Executor, apiIds: readonly string[]): Promise<void> {
  await db.deleteFrom('top_apis').execute();
  if (apiIds.length === 0) return;
  await db
    .insertInto('top_apis')
    .values(apiIds.map((api_id, order) => ({ api_id, order })))
    .execute();
}

export async function deleteTopApi(db: Executor, apiId: string): Promise<void> {
  await db.deleteFrom('top_apis').where('api_id', '=', apiId).execute();
}
