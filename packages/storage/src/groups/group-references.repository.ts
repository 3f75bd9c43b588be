import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../database.js';
import { jsonListHolds } from '../sql-text.js';
import type { GroupRow } from './groups.table.js';

/** The tables whose rows carry a JSON list of group ids in their `groups` column. */
export type GroupedTable = 'apis' | 'applications';

/** The APIs of a group (their `groups` list holds it), by name. */
export async function findApisOfGroup(db: Executor, groupId: string) {
  return db
    .selectFrom('apis')
    .select(['id', 'name', 'version', 'visibility'])
    .where(jsonListHolds('apis.groups', groupId))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The active applications of a group, by name. */
export async function findApplicationsOfGroup(db: Executor, groupId: string) {
  return db
    .selectFrom('applications')
    .select(['id', 'name', 'type'])
    .where(jsonListHolds('applications.groups', groupId))
    .where('status', '=', 'ACTIVE')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/**
 * Adds the group to the `groups` list of every row of the table that lacks it (associate a group to
 * every existing API or application); answers how many rows changed.
 */
export async function addGroupToAll(db: Executor, table: GroupedTable, groupId: string): Promise<number> {
  const rows = await db
    .selectFrom(table)
    .select(['id', 'groups'])
    .where((eb) => eb.not(jsonListHolds(`${table}.groups`, groupId)))
    .execute();
  for (const row of rows) {
    const groups = [...(JSON.parse(row.groups) as string[]), groupId];
    await db
      .updateTable(table)
      .set({ groups: JSON.stringify(groups) })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}

/** Takes the group out of the `groups` list of every row holding it (the group is deleted). */
export async function removeGroupFromAll(
  db: Executor,
  table: GroupedTable,
  groupId: string,
  now: number,
): Promise<number> {
  const rows = await db
    .selectFrom(table)
    .select(['id', 'groups'])
    .where(jsonListHolds(`${table}.groups`, groupId))
    .execute();
  for (const row of rows) {
    const groups = (JSON.parse(row.groups) as string[]).filter((g) => g !== groupId);
    await db
      .updateTable(table)
      .set({ groups: JSON.stringify(groups), updated_at: now })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}

/** Changes the editable columns of a group; answers the number of rows changed. */
export async function updateGroup(
  db: Executor,
  id: string,
  changes: Partial<Omit<GroupRow, 'id' | 'created_at'>>,
): Promise<number> {
  const result = await db.updateTable('groups').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether another group than `exceptId` has this name (case-insensitive). */
export async function groupNameTaken(db: Executor, name: string, exceptId?: string): Promise<boolean> {
  let q = db
    .selectFrom('groups')
    .select('id')
    .where((eb) => sql<SqlBool>`lower(${eb.ref('name')}) = ${name.toLowerCase()}`);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}
