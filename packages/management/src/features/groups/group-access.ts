import { ADMIN, DomainError, notFound, parsePermission } from '@portico/model';
import type { Executor, GroupRow } from '@portico/storage';
import { findGroupById, findMembershipsOfMember } from '@portico/storage';
import type { PermissionService } from '../permissions/permissions.service.js';

/** The platform-wide right over every group (console-applications-and-settings.md 6). */
const SUPER_ADMIN = parsePermission('management-group-u');

export const groupNotFound = (id: string) => notFound('Group', id);

export const NOT_MANAGEABLE = 'You are not an administrator of this group';

/**
 * Who may do what on groups: the holder of management-group-u is their super admin (default roles,
 * max members, invitation options and role locks, always adds members); an ADMIN member of a group
 * (GROUP scope role) manages that group within its options.
 */
export class GroupAccess {
  constructor(
    private readonly db: Executor,
    private readonly permissions: PermissionService,
  ) {}

  isSuperAdmin(userId: string): Promise<boolean> {
    return this.permissions.has(userId, SUPER_ADMIN);
  }

  /** Ids of the groups of which the user is an ADMIN member. */
  async adminOf(userId: string, db: Executor = this.db): Promise<Set<string>> {
    const memberships = await findMembershipsOfMember(db, 'USER', userId);
    return new Set(
      memberships
        .filter((m) => m.reference_type === 'GROUP' && m.role_scope === 'GROUP' && m.role_name === ADMIN)
        .map((m) => m.reference_id),
    );
  }

  /** Whether the user may change the group: super admin, or ADMIN member of it. */
  async manageable(userId: string, groupId: string): Promise<boolean> {
    return (await this.isSuperAdmin(userId)) || (await this.adminOf(userId)).has(groupId);
  }

  /**
   * The group, when the user may change it: 404 unknown, 403 otherwise. `superAdmin` is read before
   * the transaction `db` opens (SQLite has one connection: the permission check cannot run beside it).
   */
  async manage(
    userId: string,
    groupId: string,
    db: Executor,
    superAdmin: boolean,
  ): Promise<{ group: GroupRow; superAdmin: boolean }> {
    const group = await findGroupById(db, groupId);
    if (!group) throw groupNotFound(groupId);
    if (!superAdmin && !(await this.adminOf(userId, db)).has(groupId))
      throw new DomainError(403, NOT_MANAGEABLE, 'GROUP_NOT_MANAGEABLE');
    return { group, superAdmin };
  }
}
