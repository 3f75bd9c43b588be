import { invalidField } from '@portico/model';
import type { Executor, GroupRow } from '@portico/storage';
import { findRole, findRolesByScope } from '@portico/storage';

export type MemberScope = 'API' | 'APPLICATION';

/**
 * 400 naming the field unless the role exists in the scope and may be given (not a system role such as
 * PRIMARY_OWNER, which only ownership gives).
 */
export async function assertGivableRole(
  db: Executor,
  scope: MemberScope,
  name: string,
  field: string,
): Promise<void> {
  const role = await findRole(db, scope, name);
  if (!role) throw invalidField(field, `role [${scope}:${name}] does not exist`);
  if (role.is_system === 1) throw invalidField(field, `the system role [${scope}:${name}] can not be given`);
}

/** The role a member gets in a scope when none is chosen: the group's default, else the scope's default. */
export async function defaultRole(db: Executor, group: GroupRow, scope: MemberScope): Promise<string | null> {
  const own = scope === 'API' ? group.api_role : group.application_role;
  if (own) return own;
  return (await findRolesByScope(db, scope)).find((r) => r.is_default === 1)?.name ?? null;
}

/** Whether the group locks the role of a scope (its admins, unless super admins, cannot choose it). */
export const isLocked = (group: GroupRow, scope: MemberScope): boolean =>
  (scope === 'API' ? group.lock_api_role : group.lock_application_role) === 1;
