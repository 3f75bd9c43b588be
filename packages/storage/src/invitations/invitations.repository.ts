import type { Executor } from '../database.js';
import type { InvitationRow, NewInvitationRow } from './invitations.table.js';

/** The pending invitations of a reference (a group), by email. */
export async function findInvitationsOfReference(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<InvitationRow[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .orderBy('email')
    .execute();
}

export async function findInvitationById(db: Executor, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every pending invitation of an email address (lower-cased), oldest first. */
export async function findInvitationsByEmail(db: Executor, email: string): Promise<InvitationRow[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertInvitation(db: Executor, row: NewInvitationRow): Promise<void> {
  await db
    .insertInto('invitations')
    .values({ ...row, email: row.email.toLowerCase() })
    .execute();
}

/** Changes the roles of an invitation; answers the number of rows changed. */
export async function updateInvitationRoles(
  db: Executor,
  id: string,
  roles: { api_role: string | null; application_role: string | null },
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('invitations')
    .set({ ...roles, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteInvitation(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('invitations').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteInvitationsOfReference(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('invitations')
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
