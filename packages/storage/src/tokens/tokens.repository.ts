import type { Executor } from '../database.js';
import type { NewTokenRow, TokenRow } from './tokens.table.js';

export async function insertToken(db: Executor, row: NewTokenRow): Promise<void> {
  await db.insertInto('tokens').values(row).execute();
}

export async function findToken(db: Executor, id: string): Promise<TokenRow | undefined> {
  return db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks the token used; returns false when it was already used (two tabs finishing at once). */
export async function markTokenUsed(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Ends the unused tokens of a user of one type (but `exceptId`): when a newer link is sent or one is
 * used, the older links stop working. Returns how many were ended.
 */
export async function supersedeTokens(
  db: Executor,
  userId: string,
  type: string,
  now: number,
  exceptId?: string,
): Promise<number> {
  let query = db
    .updateTable('tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .where('used_at', 'is', null);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
