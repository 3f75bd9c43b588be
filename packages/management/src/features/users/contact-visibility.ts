import type { PermissionMap } from '@portico/model';
import type { Executor } from '@portico/storage';
import { findAllRoles, findMembershipsOfMember } from '@portico/storage';
import type { PermissionService } from '../permissions/permissions.service.js';

const PLATFORM_USER_PERMISSIONS = ['management-user-r', 'management-user-u'];

/**
 * Whether a user may see other users' emails in a user search: those who manage users
 * (management-user-r or -u, administrators) and those who manage members somewhere (api-member-u or
 * application-member-u on at least one API or application, directly or through a group), who pick
 * people to add. Everyone else finds users by name and gets no way to reach them.
 */
export async function maySeeUserContacts(
  db: Executor,
  permissions: Pick<PermissionService, 'access'>,
  userId: string,
): Promise<boolean> {
  const access = await permissions.access(userId);
  if (access.isAdmin || access.permissions.some((p) => PLATFORM_USER_PERMISSIONS.includes(p))) return true;
  const [memberships, roles] = await Promise.all([
    findMembershipsOfMember(db, 'USER', userId),
    findAllRoles(db),
  ]);
  const managesMembers = new Set(
    roles
      .filter((r) => (r.scope === 'API' || r.scope === 'APPLICATION') && grantsMemberUpdate(r.permissions))
      .map((r) => `${r.scope}:${r.name}`),
  );
  return memberships.some((m) => managesMembers.has(`${m.role_scope}:${m.role_name}`));
}

function grantsMemberUpdate(json: string): boolean {
  try {
    return ((JSON.parse(json) as PermissionMap).MEMBER ?? []).includes('U');
  } catch {
    return false;
  }
}
