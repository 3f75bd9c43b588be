import { sql } from 'kysely';
import type { Executor } from '../database.js';
import type { EventRow } from './events.table.js';

export interface EventSearch {
  /** Only these types; all when empty or absent. */
  types?: readonly string[];
  /** Only the events of these APIs; none when empty, any when absent. */
  apiIds?: readonly string[];
  from?: number;
  to?: number;
  offset: number;
  limit: number;
}

/** Events newest first (the platform dashboard's events table), with the total, payload left out. */
export async function searchEvents(
  db: Executor,
  q: EventSearch,
): Promise<{ rows: Omit<EventRow, 'payload'>[]; total: number }> {
  let base = db.selectFrom('events');
  if (q.types && q.types.length > 0) base = base.where('type', 'in', [...q.types]);
  if (q.apiIds !== undefined) {
    base = q.apiIds.length > 0 ? base.where('api_id', 'in', [...q.apiIds]) : base.where(sql<boolean>`1 = 0`);
  }
  if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('created_at', '<=', q.to);
  const [rows, count] = await Promise.all([
    base
      .select(['seq', 'id', 'type', 'properties', 'api_id', 'user_id', 'created_at', 'updated_at', 'sync_tx'])
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .offset(q.offset)
      .limit(q.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
