import type { Executor } from '../database.js';
import type { MediaRow, NewMediaRow } from './media.table.js';

export async function findMedia(
  db: Executor,
  referenceType: string,
  referenceId: string,
  hash: string,
): Promise<MediaRow | undefined> {
  return db
    .selectFrom('media')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .where('hash', '=', hash)
    .executeTakeFirst();
}

/** Stores a file once: the same bytes uploaded again keep the first row. */
export async function insertMediaOnce(db: Executor, row: NewMediaRow): Promise<void> {
  await db
    .insertInto('media')
    .values(row)
    .onConflict((oc) => oc.columns(['reference_type', 'reference_id', 'hash']).doNothing())
    .execute();
}
