import type { Executor } from '../database.js';
import type { AuditRow, NewAuditRow } from './audits.table.js';

export async function insertAudit(db: Executor, row: NewAuditRow): Promise<void> {
  await db.insertInto('audits').values(row).execute();
}

export interface AuditQuery {
  /** Restrict to these references, e.g. `[{ type: 'API', ids: [...] }]`; absent means all. */
  references?: { type: string; ids?: readonly string[] }[];
  event?: string;
  from?: number;
  to?: number;
  offset: number;
  limit: number;
}

/** Audit entries matching the query, newest first, with the total count. */
export async function searchAudits(
  db: Executor,
  q: AuditQuery,
): Promise<{ rows: AuditRow[]; total: number }> {
  let base = db.selectFrom('audits');
  if (q.references) {
    const refs = q.references;
    if (refs.length === 0) return { rows: [], total: 0 };
    base = base.where((eb) =>
      eb.or(
        refs.map((r) =>
          r.ids === undefined
            ? eb('reference_type', '=', r.type)
            : r.ids.length === 0
              ? eb.lit(false) // a literal: SQLite cannot bind a boolean
              : eb.and([eb('reference_type', '=', r.type), eb('reference_id', 'in', r.ids)]),
        ),
      ),
    );
  }
  if (q.event) base = base.where('event', '=', q.event);
  if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('created_at', '<=', q.to);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(q.offset).limit(q.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The distinct event names found in the audit trail. */
export async function findAuditEventNames(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('audits').select('event').distinct().orderBy('event').execute();
  return rows.map((r) => r.event);
}
