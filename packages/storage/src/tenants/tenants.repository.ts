import type { Executor } from '../database.js';
import type { NewTenantRow, TenantRow } from './tenants.table.js';

export async function findAllTenants(db: Executor): Promise<TenantRow[]> {
  return db.selectFrom('tenants').selectAll().orderBy('name').execute();
}

export async function findTenantsByIds(db: Executor, ids: readonly string[]): Promise<TenantRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('tenants').selectAll().where('id', 'in', ids).execute();
}

export async function insertTenant(db: Executor, row: NewTenantRow): Promise<void> {
  await db.insertInto('tenants').values(row).execute();
}

export async function updateTenant(
  db: Executor,
  id: string,
  changes: { name: string; description: string | null },
): Promise<number> {
  const result = await db.updateTable('tenants').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteTenant(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('tenants').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
