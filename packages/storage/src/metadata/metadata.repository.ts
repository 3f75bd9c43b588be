import type { Executor } from '../database.js';
import type { MetadataRow, MetadataRowUpdate, NewMetadataRow } from './metadata.table.js';

/** Every metadata of a reference (an API, or the defaults), by key. */
export async function findMetadataOfReference(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<MetadataRow[]> {
  return db
    .selectFrom('metadata')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .orderBy('key')
    .execute();
}

export async function findMetadata(
  db: Executor,
  referenceType: string,
  referenceId: string,
  key: string,
): Promise<MetadataRow | undefined> {
  return db
    .selectFrom('metadata')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function insertMetadata(db: Executor, row: NewMetadataRow): Promise<void> {
  await db.insertInto('metadata').values(row).execute();
}

export async function updateMetadata(
  db: Executor,
  ref: { referenceType: string; referenceId: string; key: string },
  changes: Omit<MetadataRowUpdate, 'reference_type' | 'reference_id' | 'key'>,
): Promise<number> {
  const result = await db
    .updateTable('metadata')
    .set(changes)
    .where('reference_type', '=', ref.referenceType)
    .where('reference_id', '=', ref.referenceId)
    .where('key', '=', ref.key)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes one metadata, or every metadata of the reference when no key is given. */
export async function deleteMetadata(
  db: Executor,
  referenceType: string,
  referenceId: string,
  key?: string,
): Promise<number> {
  let q = db
    .deleteFrom('metadata')
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId);
  if (key !== undefined) q = q.where('key', '=', key);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows);
}
