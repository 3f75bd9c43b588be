import type { Executor } from '../database.js';
import type { MembershipRow, NewMembershipRow } from './memberships.table.js';

/** Every membership of one member (a user's roles everywhere, or a group's). */
export async function findMembershipsOfMember(
  db: Executor,
  memberType: string,
  memberId: string,
): Promise<MembershipRow[]> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('member_type', '=', memberType)
    .where('member_id', '=', memberId)
    .execute();
}

/** Memberships of a user on some references of one type (the user's roles on these APIs). */
export async function findUserMembershipsOn(
  db: Executor,
  userId: string,
  referenceType: string,
  referenceIds: readonly string[],
): Promise<MembershipRow[]> {
  if (referenceIds.length === 0) return [];
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('member_type', '=', 'USER')
    .where('member_id', '=', userId)
    .where('reference_type', '=', referenceType)
    .where('reference_id', 'in', referenceIds)
    .execute();
}

/** Every member of one reference (the members of an API, of a group). */
export async function findMembershipsOfReference(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<MembershipRow[]> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .orderBy('created_at')
    .execute();
}

/** Users holding a role of a scope (the members of a MANAGEMENT or PORTAL role). */
export async function findMembershipsByRole(
  db: Executor,
  roleScope: string,
  roleName: string,
): Promise<MembershipRow[]> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('role_scope', '=', roleScope)
    .where('role_name', '=', roleName)
    .execute();
}

/** Creates the membership, or changes its role when the member already has one for this scope. */
export async function upsertMembership(db: Executor, row: NewMembershipRow): Promise<void> {
  await db
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['member_id', 'member_type', 'reference_type', 'reference_id', 'role_scope'])
        .doUpdateSet({ role_name: row.role_name, updated_at: row.updated_at }),
    )
    .execute();
}

export async function deleteMemberships(
  db: Executor,
  where: { memberId: string; memberType: string; referenceType: string; referenceId: string },
): Promise<number> {
  const result = await db
    .deleteFrom('memberships')
    .where('member_id', '=', where.memberId)
    .where('member_type', '=', where.memberType)
    .where('reference_type', '=', where.referenceType)
    .where('reference_id', '=', where.referenceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteMembershipsOfMember(db: Executor, memberType: string, memberId: string) {
  await db
    .deleteFrom('memberships')
    .where('member_type', '=', memberType)
    .where('member_id', '=', memberId)
    .execute();
}

/** Removes every member of a reference (an API being deleted). */
export async function deleteMembershipsOfReference(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('memberships')
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The user memberships holding a role (PRIMARY_OWNER, ...) on some references of one type. */
export async function findUserMembershipsWithRole(
  db: Executor,
  referenceType: string,
  referenceIds: readonly string[],
  roleName: string,
): Promise<MembershipRow[]> {
  if (referenceIds.length === 0) return [];
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('member_type', '=', 'USER')
    .where('reference_type', '=', referenceType)
    .where('reference_id', 'in', referenceIds)
    .where('role_scope', '=', referenceType)
    .where('role_name', '=', roleName)
    .execute();
}
