import type { Executor } from '../database.js';

/** Gives every membership holding a role of a scope another role (the role is being deleted). */
export async function replaceRoleOfMemberships(
  db: Executor,
  scope: string,
  from: string,
  to: string,
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('memberships')
    .set({ role_name: to, updated_at: now })
    .where('role_scope', '=', scope)
    .where('role_name', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Of these users, those who are the primary owner of at least one API or application. */
export async function findPrimaryOwnerIds(db: Executor, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('memberships')
    .select('member_id')
    .distinct()
    .where('member_type', '=', 'USER')
    .where('member_id', 'in', userIds)
    .where('role_scope', 'in', ['API', 'APPLICATION'])
    .where('role_name', '=', 'PRIMARY_OWNER')
    .execute();
  return new Set(rows.map((r) => r.member_id));
}

/** How many APIs and applications the user is the primary owner of. */
export async function countPrimaryOwnerships(
  db: Executor,
  userId: string,
): Promise<{ apis: number; applications: number }> {
  const rows = await db
    .selectFrom('memberships')
    .select(['reference_type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('member_type', '=', 'USER')
    .where('member_id', '=', userId)
    .where('role_scope', 'in', ['API', 'APPLICATION'])
    .where('role_name', '=', 'PRIMARY_OWNER')
    .groupBy('reference_type')
    .execute();
  const count = (type: string) => Number(rows.find((r) => r.reference_type === type)?.n ?? 0);
  return { apis: count('API'), applications: count('APPLICATION') };
}
