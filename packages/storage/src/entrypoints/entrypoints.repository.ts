import type { Executor } from '../database.js';
import type { EntrypointRow, NewEntrypointRow } from './entrypoints.table.js';

export async function findAllEntrypoints(db: Executor): Promise<EntrypointRow[]> {
  return db.selectFrom('entrypoints').selectAll().orderBy('value').orderBy('id').execute();
}

export async function findEntrypoint(db: Executor, id: string): Promise<EntrypointRow | undefined> {
  return db.selectFrom('entrypoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertEntrypoint(db: Executor, row: NewEntrypointRow): Promise<void> {
  await db.insertInto('entrypoints').values(row).execute();
}

export async function updateEntrypoint(
  db: Executor,
  id: string,
  changes: { value: string; tags: string },
): Promise<number> {
  const result = await db.updateTable('entrypoints').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteEntrypoint(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('entrypoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
