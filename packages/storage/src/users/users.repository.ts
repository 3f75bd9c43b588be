import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../database.js';
import type { NewUserRow, UserRow, UserRowUpdate } from './users.table.js';

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUsersByIds(db: Executor, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
}

export async function findUserBySource(
  db: Executor,
  source: string,
  sourceId: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('source', '=', source)
    .where((eb) => eb(eb.fn('lower', ['source_id']), '=', sourceId.toLowerCase()))
    .executeTakeFirst();
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function insertUser(db: Executor, row: NewUserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUser(db: Executor, id: string, changes: UserRowUpdate): Promise<number> {
  const result = await db.updateTable('users').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteUser(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/**
 * Users whose name, email or username contains the text (case-insensitive), by last name. Deleted
 * (archived) users are never found.
 */
export async function searchUsers(
  db: Executor,
  query: { text?: string; offset: number; limit: number },
): Promise<{ rows: UserRow[]; total: number }> {
  let base = db.selectFrom('users').where('status', '!=', 'ARCHIVED');
  if (query.text) {
    const like = `%${query.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or(
        // SQLite's LIKE has no escape character unless told (PostgreSQL's is the backslash).
        (['firstname', 'lastname', 'email', 'source_id'] as const).map(
          (col) => sql<SqlBool>`lower(${eb.ref(col)}) like ${like} escape '\\'`,
        ),
      ),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('lastname')
      .orderBy('firstname')
      .orderBy('id')
      .offset(query.offset)
      .limit(query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Ends every session of the user opened before `now`, but `keptSessionId` (the session that changed
 * the password); the session check reads these columns.
 */
export async function endSessionsBefore(
  db: Executor,
  id: string,
  now: number,
  keptSessionId: string | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ sessions_valid_after: now, kept_session_id: keptSessionId })
    .where('id', '=', id)
    .execute();
}

/** Whether a session opened at `issuedAt` is still valid for the user (not ended by `endSessionsBefore`). */
export function isSessionOfUserValid(
  user: Pick<UserRow, 'sessions_valid_after' | 'kept_session_id'>,
  sessionId: string,
  issuedAt: number,
): boolean {
  if (user.sessions_valid_after === null || user.sessions_valid_after === undefined) return true;
  return issuedAt >= user.sessions_valid_after || sessionId === user.kept_session_id;
}

/**
 * Changes the given columns only, in one statement, and moves `updated_at` forward (to `now`, or one
 * past the stored value when that is later), so that two concurrent changes of different columns both
 * land. With `expectedUpdatedAt`, changes nothing unless the row is still at that version (If-Match).
 * Returns the number of rows changed (0: unknown user or stale version).
 */
export async function updateUserColumns(
  db: Executor,
  id: string,
  changes: Omit<UserRowUpdate, 'id' | 'updated_at'>,
  now: number,
  expectedUpdatedAt?: number,
): Promise<number> {
  let query = db
    .updateTable('users')
    .set({
      ...changes,
      updated_at: sql<number>`case when updated_at >= ${now} then updated_at + 1 else ${now} end`,
    })
    .where('id', '=', id);
  if (expectedUpdatedAt !== undefined) query = query.where('updated_at', '=', expectedUpdatedAt);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
