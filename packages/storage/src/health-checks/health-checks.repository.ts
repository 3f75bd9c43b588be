import type { Executor } from '../database.js';
import type { HealthCheckRow, NewHealthCheckRow } from './health-checks.table.js';

export async function insertHealthChecks(db: Executor, rows: readonly NewHealthCheckRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('health_checks')
    .values([...rows])
    .execute();
}

export async function findHealthCheckById(db: Executor, id: string): Promise<HealthCheckRow | undefined> {
  return db.selectFrom('health_checks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Checks of an API, newest first; `transitionsOnly` keeps the state changes. */
export async function findHealthChecks(
  db: Executor,
  q: { apiId: string; from?: number; to?: number; transitionsOnly?: boolean; offset: number; limit: number },
): Promise<{ rows: HealthCheckRow[]; total: number }> {
  let base = db.selectFrom('health_checks').where('api_id', '=', q.apiId);
  if (q.from !== undefined) base = base.where('timestamp', '>=', q.from);
  if (q.to !== undefined) base = base.where('timestamp', '<=', q.to);
  if (q.transitionsOnly) base = base.where('transition', '=', 1);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('timestamp', 'desc').orderBy('id').offset(q.offset).limit(q.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
