import type { Executor } from '../database.js';
import type { RequestRow } from '../requests/requests.table.js';
import type { AnalyticsScope } from './analytics.repository.js';
import { groupField, scopedRequests } from './analytics.repository.js';

export interface RequestLogPage {
  /** A field of the whitelist (`@timestamp`, `status`, `response-time`...). */
  sortField: string;
  ascending: boolean;
  offset: number;
  limit: number;
}

/** A page of the scope's requests, sorted on a field (then by id, so that pages never overlap), and the total. */
export async function searchRequests(
  db: Executor,
  scope: AnalyticsScope,
  page: RequestLogPage,
): Promise<{ rows: RequestRow[]; total: number }> {
  const column = groupField('field', page.sortField).column as keyof RequestRow;
  const direction = page.ascending ? 'asc' : 'desc';
  const base = scopedRequests(db, scope);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(column, direction)
      .orderBy('id', direction)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
