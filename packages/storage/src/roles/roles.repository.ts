import type { Executor } from '../database.js';
import type { NewRoleRow, RoleRow } from './roles.table.js';

export async function findRolesByScope(db: Executor, scope: string): Promise<RoleRow[]> {
  return db.selectFrom('roles').selectAll().where('scope', '=', scope).orderBy('name').execute();
}

export async function findAllRoles(db: Executor): Promise<RoleRow[]> {
  return db.selectFrom('roles').selectAll().orderBy('scope').orderBy('name').execute();
}

export async function findRole(db: Executor, scope: string, name: string): Promise<RoleRow | undefined> {
  return db
    .selectFrom('roles')
    .selectAll()
    .where('scope', '=', scope)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function findDefaultRole(db: Executor, scope: string): Promise<RoleRow | undefined> {
  return db
    .selectFrom('roles')
    .selectAll()
    .where('scope', '=', scope)
    .where('is_default', '=', 1)
    .executeTakeFirst();
}

export async function insertRole(db: Executor, row: NewRoleRow): Promise<void> {
  await db.insertInto('roles').values(row).execute();
}

export async function updateRole(
  db: Executor,
  scope: string,
  name: string,
  changes: Partial<Omit<NewRoleRow, 'scope' | 'name' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('roles').set(changes).where('scope', '=', scope).where('name', '=', name).execute();
}

/** Clears the default flag of every role of a scope but one. */
export async function clearOtherDefaultRoles(db: Executor, scope: string, keep: string): Promise<void> {
  await db
    .updateTable('roles')
    .set({ is_default: 0 })
    .where('scope', '=', scope)
    .where('name', '!=', keep)
    .execute();
}

export async function deleteRole(db: Executor, scope: string, name: string): Promise<number> {
  const result = await db
    .deleteFrom('roles')
    .where('scope', '=', scope)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
