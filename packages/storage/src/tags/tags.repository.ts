import type { Executor } from '../database.js';
import type { NewTagRow, TagRow } from './tags.table.js';

export async function findAllTags(db: Executor): Promise<TagRow[]> {
  return db.selectFrom('tags').selectAll().orderBy('name').execute();
}

export async function insertTag(db: Executor, row: NewTagRow): Promise<void> {
  await db.insertInto('tags').values(row).execute();
}

export async function findTag(db: Executor, id: string): Promise<TagRow | undefined> {
  return db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateTag(
  db: Executor,
  id: string,
  changes: { name: string; description: string | null; restricted_groups: string },
): Promise<number> {
  const result = await db.updateTable('tags').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteTag(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('tags').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
