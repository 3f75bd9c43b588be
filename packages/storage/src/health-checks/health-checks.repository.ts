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

/** What a health log list may be filtered on, besides the API and the range. */
export interface HealthCheckFilter {
  endpoint?: string | undefined;
  gateway?: string | undefined;
  success?: boolean | undefined;
  state?: number | undefined;
}

/** Checks of an API, newest first; `transitionsOnly` keeps the state changes. */
export async function findHealthChecks(
  db: Executor,
  q: {
    apiId: string;
    from?: number | undefined;
    to?: number | undefined;
    transitionsOnly?: boolean | undefined;
    filter?: HealthCheckFilter | undefined;
    offset: number;
    limit: number;
  },
): Promise<{ rows: HealthCheckRow[]; total: number }> {
  let base = db.selectFrom('health_checks').where('api_id', '=', q.apiId);
  if (q.from !== undefined) base = base.where('timestamp', '>=', q.from);
  if (q.to !== undefined) base = base.where('timestamp', '<=', q.to);
  if (q.transitionsOnly) base = base.where('transition', '=', 1);
  const f = q.filter ?? {};
  if (f.endpoint !== undefined) base = base.where('endpoint', '=', f.endpoint);
  if (f.gateway !== undefined) base = base.where('gateway', '=', f.gateway);
  if (f.success !== undefined) base = base.where('success', '=', f.success ? 1 : 0);
  if (f.state !== undefined) base = base.where('state', '=', f.state);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('timestamp', 'desc').orderBy('id').offset(q.offset).limit(q.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
