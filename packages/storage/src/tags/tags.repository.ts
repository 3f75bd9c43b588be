import type { Executor } from '../database.js';
import type { NewTagRow, TagRow } from './tags.table.js';

export async function findAllTags(db: Executor): Promise<TagRow[]> {
  return db.selectFrom('tags').selectAll().orderBy('name').execute();
}

export async function insertTag(db: Executor, row: NewTagRow): Promise<void> {
  await db.insertInto('tags').values(row).execute();
}
