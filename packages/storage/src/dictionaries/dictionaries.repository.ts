import type { Executor } from '../database.js';
import type { DictionaryRow, DictionaryRowUpdate, NewDictionaryRow } from './dictionaries.table.js';

export async function findAllDictionaries(db: Executor): Promise<DictionaryRow[]> {
  return db.selectFrom('dictionaries').selectAll().orderBy('name').execute();
}

export async function findDictionaryById(db: Executor, id: string): Promise<DictionaryRow | undefined> {
  return db.selectFrom('dictionaries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertDictionary(db: Executor, row: NewDictionaryRow): Promise<void> {
  await db.insertInto('dictionaries').values(row).execute();
}

export async function updateDictionary(
  db: Executor,
  id: string,
  changes: DictionaryRowUpdate,
): Promise<void> {
  await db.updateTable('dictionaries').set(changes).where('id', '=', id).execute();
}

export async function deleteDictionary(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('dictionaries').where('id', '=', id).execute();
}

/** Started dynamic dictionaries whose next poll is due at `now`. */
export async function findDictionariesDueForPoll(db: Executor, now: number): Promise<DictionaryRow[]> {
  return db
    .selectFrom('dictionaries')
    .selectAll()
    .where('type', '=', 'DYNAMIC')
    .where('state', '=', 'STARTED')
    .where((eb) => eb.or([eb('next_poll_at', 'is', null), eb('next_poll_at', '<=', now)]))
    .orderBy('next_poll_at')
    .execute();
}

/**
 * Claims one poll of a dictionary: moves its next poll from the value read to `next`, only if nobody
 * moved it meanwhile. True when this caller won (a poll runs once however many processes try).
 */
export async function claimDictionaryPoll(
  db: Executor,
  id: string,
  seen: number | null,
  next: number,
): Promise<boolean> {
  const result = await db
    .updateTable('dictionaries')
    .set({ next_poll_at: next })
    .where('id', '=', id)
    .where('state', '=', 'STARTED')
    .where((eb) => (seen === null ? eb('next_poll_at', 'is', null) : eb('next_poll_at', '=', seen)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What a gateway compares to know which deployed dictionaries changed (cheap: no properties). */
export async function findDictionaryDeployments(
  db: Executor,
): Promise<{ id: string; name: string; deploy_seq: number | null; deployed: boolean }[]> {
  const rows = await db
    .selectFrom('dictionaries')
    .select(['id', 'name', 'deploy_seq'])
    .select((eb) => eb('deployed_properties', 'is not', null).as('deployed'))
    .where('deploy_seq', 'is not', null)
    .execute();
  return rows.map((r) => ({ ...r, deployed: Boolean(r.deployed) }));
}

/** The served properties (JSON text) of some deployed dictionaries. */
export async function findDeployedDictionaryProperties(
  db: Executor,
  ids: readonly string[],
): Promise<{ id: string; name: string; deploy_seq: number | null; deployed_properties: string | null }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('dictionaries')
    .select(['id', 'name', 'deploy_seq', 'deployed_properties'])
    .where('id', 'in', ids)
    .execute();
}
