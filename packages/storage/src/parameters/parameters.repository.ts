import type { Executor } from '../database.js';
import type { ParameterRow } from './parameters.table.js';

export async function findAllParameters(db: Executor): Promise<ParameterRow[]> {
  return db.selectFrom('parameters').selectAll().orderBy('key').execute();
}

export async function findParameter(db: Executor, key: string): Promise<ParameterRow | undefined> {
  return db.selectFrom('parameters').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function upsertParameter(db: Executor, key: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('parameters')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}

/** Removes the parameter (its default applies again). */
export async function deleteParameter(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('parameters').where('key', '=', key).execute();
}

/** Inserts the parameter only when absent; returns the value that is stored afterwards. */
export async function insertParameterIfAbsent(
  db: Executor,
  key: string,
  value: string,
  now: number,
): Promise<string> {
  await db
    .insertInto('parameters')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await findParameter(db, key);
  return row!.value;
}
