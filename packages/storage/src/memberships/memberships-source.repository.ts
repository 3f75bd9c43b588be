import type { Executor } from '../database.js';
import type { MembershipRow, NewMembershipRow } from './memberships.table.js';

/** The memberships of a user that an identity provider's mappings gave (their `source`). */
export async function findUserMembershipsFromSource(
  db: Executor,
  userId: string,
  source: string,
): Promise<MembershipRow[]> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('member_type', '=', 'USER')
    .where('member_id', '=', userId)
    .where('source', '=', source)
    .execute();
}

/**
 * Creates the membership or changes its role, and marks who gave it: `source` is the identity provider
 * (mapped memberships), or null when someone gave it by hand (then later sign-ins leave it alone).
 */
export async function upsertMembershipWithSource(db: Executor, row: NewMembershipRow): Promise<void> {
  await db
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['member_id', 'member_type', 'reference_type', 'reference_id', 'role_scope'])
        .doUpdateSet({ role_name: row.role_name, source: row.source ?? null, updated_at: row.updated_at }),
    )
    .execute();
}

export async function deleteMembershipById(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('memberships').where('id', '=', id).execute();
}
