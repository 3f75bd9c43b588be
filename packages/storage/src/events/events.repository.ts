import type { Executor } from '../database.js';
import type { EventRow, NewEventRow } from './events.table.js';

/** Inserts an event and returns it with its sequence number. */
export async function insertEvent(db: Executor, row: NewEventRow): Promise<EventRow> {
  return db.insertInto('events').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Events after a sequence number, in order: what a gateway has not applied yet. */
export async function findEventsAfter(
  db: Executor,
  seq: number,
  types: readonly string[],
  limit: number,
): Promise<EventRow[]> {
  // `in ()` is valid SQLite but a syntax error on PostgreSQL.
  if (types.length === 0) return [];
  return db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>', seq)
    .where('type', 'in', types)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** The events of one API, newest first, optionally of some types only. */
export async function findEventsOfApi(
  db: Executor,
  apiId: string,
  types: readonly string[] | undefined,
): Promise<EventRow[]> {
  let q = db.selectFrom('events').selectAll().where('api_id', '=', apiId);
  if (types && types.length > 0) q = q.where('type', 'in', types);
  return q.orderBy('seq', 'desc').execute();
}

export async function findEventById(db: Executor, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The latest event of one type for an API (the last deployment, for PUBLISH_API). */
export async function findLatestEventOfApi(
  db: Executor,
  apiId: string,
  type: string,
): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('type', '=', type)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}
