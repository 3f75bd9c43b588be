import { PostgresAdapter, sql } from 'kysely';
import type { Executor } from '../database.js';
import { escapeLike, jsonListHolds } from '../sql-text.js';
import type { ApplicationRow, ApplicationRowUpdate, NewApplicationRow } from './applications.table.js';

export async function findApplicationById(db: Executor, id: string): Promise<ApplicationRow | undefined> {
  return db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findApplicationsByIds(db: Executor, ids: readonly string[]): Promise<ApplicationRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('applications').selectAll().where('id', 'in', ids).execute();
}

export async function insertApplication(db: Executor, row: NewApplicationRow): Promise<void> {
  await db.insertInto('applications').values(row).execute();
}

/** Changes some columns of an application; answers the number of rows changed. */
export async function updateApplication(
  db: Executor,
  id: string,
  changes: ApplicationRowUpdate,
): Promise<number> {
  const result = await db.updateTable('applications').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The active application using a client id, other than `excludeId`. */
export async function findActiveApplicationByClientId(
  db: Executor,
  clientId: string,
  excludeId?: string,
): Promise<ApplicationRow | undefined> {
  let q = db
    .selectFrom('applications')
    .selectAll()
    .where('status', '=', 'ACTIVE')
    .where('client_id', '=', clientId);
  if (excludeId !== undefined) q = q.where('id', '!=', excludeId);
  return q.executeTakeFirst();
}

export interface ApplicationListFilter {
  /** Only the applications of which the user is a member, directly or through one of these groups. */
  memberOf?: { userId: string; groupIds: readonly string[] } | undefined;
  /** Words of the name or description (case-insensitive). */
  query?: string | undefined;
  /** Only the applications of this group. */
  group?: string | undefined;
  status?: string | undefined;
}

/** Applications matching the filter, by name. */
export async function findApplications(
  db: Executor,
  filter: ApplicationListFilter,
): Promise<ApplicationRow[]> {
  let q = db.selectFrom('applications').selectAll();
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.group !== undefined) q = q.where(jsonListHolds('applications.groups', filter.group));
  const member = filter.memberOf;
  if (member) {
    q = q.where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('memberships')
            .select('memberships.id')
            .where('memberships.reference_type', '=', 'APPLICATION')
            .whereRef('memberships.reference_id', '=', 'applications.id')
            .where('memberships.member_type', '=', 'USER')
            .where('memberships.member_id', '=', member.userId),
        ),
        ...member.groupIds.map((g) => jsonListHolds('applications.groups', g)),
      ]),
    );
  }
  for (const word of (filter.query ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    const like = `%${escapeLike(word)}%`;
    q = q.where(
      (eb) =>
        sql<boolean>`(lower(${eb.ref('applications.name')}) like ${like} escape '\\' or lower(coalesce(${eb.ref('applications.description')}, '')) like ${like} escape '\\')`,
    );
  }
  return q.orderBy('name').orderBy('id').execute();
}

/**
 * Serialises the changes of one application's subscriptions until the transaction ends (PostgreSQL;
 * SQLite runs one write transaction at a time anyway).
 */
export async function lockApplication(db: Executor, id: string): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.selectFrom('applications').select('id').where('id', '=', id).forUpdate().execute();
  }
}
