import type { Executor } from '../database.js';
import type { NewPlanRow, PlanRow, PlanRowUpdate } from './plans.table.js';

export async function findPlanById(db: Executor, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPlansByIds(db: Executor, ids: readonly string[]): Promise<PlanRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('plans').selectAll().where('id', 'in', ids).execute();
}

export async function insertPlan(db: Executor, row: NewPlanRow): Promise<void> {
  await db.insertInto('plans').values(row).execute();
}

/** The plans of an API in their order, optionally of some statuses only (`PUBLISHED`, ...). */
export async function findPlansByApi(
  db: Executor,
  apiId: string,
  statuses?: readonly string[],
): Promise<PlanRow[]> {
  if (statuses && statuses.length === 0) return [];
  let q = db.selectFrom('plans').selectAll().where('api_id', '=', apiId);
  if (statuses) q = q.where('status', 'in', statuses);
  return q.orderBy('order').orderBy('created_at').orderBy('id').execute();
}

/** Changes some columns of a plan; answers the number of rows changed. */
export async function updatePlan(db: Executor, id: string, changes: PlanRowUpdate): Promise<number> {
  const result = await db.updateTable('plans').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deletePlansOfApi(db: Executor, apiId: string): Promise<number> {
  const result = await db.deleteFrom('plans').where('api_id', '=', apiId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes one plan; answers the number of rows removed. */
export async function deletePlan(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('plans').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
