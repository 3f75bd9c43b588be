import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../database.js';
import type { GroupRow, NewGroupRow } from './groups.table.js';

export async function findGroupById(db: Executor, id: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findGroupsByIds(db: Executor, ids: readonly string[]): Promise<GroupRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('groups').selectAll().where('id', 'in', ids).orderBy('name').execute();
}

export async function findAllGroups(db: Executor): Promise<GroupRow[]> {
  return db.selectFrom('groups').selectAll().orderBy('name').execute();
}

export async function insertGroup(db: Executor, row: NewGroupRow): Promise<void> {
  await db.insertInto('groups').values(row).execute();
}

export async function deleteGroup(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('groups').where('id', '=', id).execute();
}

export async function findGroupByName(db: Executor, name: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('name', '=', name).orderBy('id').executeTakeFirst();
}

/** The groups having an event rule (`API_CREATE`: added to every new API). */
export async function findGroupsWithEventRule(db: Executor, event: string): Promise<GroupRow[]> {
  const like = `%${JSON.stringify(event).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('groups')
    .selectAll()
    .where((eb) => sql<SqlBool>`${eb.ref('event_rules')} like ${like} escape '\\'`)
    .orderBy('name')
    .execute();
}
