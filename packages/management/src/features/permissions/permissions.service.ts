import type { Permission, PermissionMap, RoleScope } from '@portico/model';
import { ADMIN, allPermissions, mergePermissions, notFound, permissionStrings } from '@portico/model';
import type { Executor, MembershipRow, RoleRow } from '@portico/storage';
import {
  findAllRoles,
  findApiById,
  findApiIdsInGroups,
  findApplicationById,
  findMembershipsOfMember,
  findMembershipsOfReference,
} from '@portico/storage';

/** The one environment: MANAGEMENT and PORTAL memberships reference it. */
export const ENVIRONMENT_ID = 'DEFAULT';

/** What a user may do on the platform (MANAGEMENT and PORTAL scopes). */
export interface UserAccess {
  userId: string;
  roles: { scope: RoleScope; name: string; permissions: PermissionMap }[];
  /** Holder of the MANAGEMENT ADMIN role: every permission on every API and application too. */
  isAdmin: boolean;
  /** Spec string form: `management-api-c`, `portal-view-r`, ... */
  permissions: string[];
}

type RoleIndex = Map<string, RoleRow>;
const roleKey = (scope: string, name: string) => `${scope}:${name}`;

function permissionsOf(role: RoleRow | undefined): PermissionMap {
  return role ? (JSON.parse(role.permissions) as PermissionMap) : {};
}

/**
 * Answers "may this user do X", for the platform and for one API or application: direct
 * memberships, plus the roles that the user's group memberships give on the group's APIs and
 * applications. Every route asks it, through `requirePermission`.
 */
export class PermissionService {
  constructor(private readonly db: Executor) {}

  private async load(userId: string): Promise<{ roles: RoleIndex; memberships: MembershipRow[] }> {
    const [roles, memberships] = await Promise.all([
      findAllRoles(this.db),
      findMembershipsOfMember(this.db, 'USER', userId),
    ]);
    return { roles: new Map(roles.map((r) => [roleKey(r.scope, r.name), r])), memberships };
  }

  private static platformRole(
    scope: 'MANAGEMENT' | 'PORTAL',
    roles: RoleIndex,
    memberships: MembershipRow[],
  ): RoleRow | undefined {
    const own = memberships.find(
      (m) => m.reference_type === scope && m.reference_id === ENVIRONMENT_ID && m.role_scope === scope,
    );
    if (own) return roles.get(roleKey(scope, own.role_name));
    return [...roles.values()].find((r) => r.scope === scope && r.is_default === 1);
  }

  async access(userId: string): Promise<UserAccess> {
    const { roles, memberships } = await this.load(userId);
    const out: UserAccess['roles'] = [];
    for (const scope of ['MANAGEMENT', 'PORTAL'] as const) {
      const role = PermissionService.platformRole(scope, roles, memberships);
      if (role) out.push({ scope, name: role.name, permissions: permissionsOf(role) });
    }
    const isAdmin = out.some((r) => r.scope === 'MANAGEMENT' && r.name === ADMIN);
    return {
      userId,
      roles: out,
      isAdmin,
      permissions: out.flatMap((r) => permissionStrings(r.scope, r.permissions)),
    };
  }

  /**
   * The user's permissions on an API or application: direct role plus group roles (admins: all).
   * 404 when the API or application does not exist.
   */
  async referencePermissions(
    userId: string,
    scope: 'API' | 'APPLICATION',
    referenceId: string,
  ): Promise<PermissionMap> {
    const entity =
      scope === 'API'
        ? await findApiById(this.db, referenceId)
        : await findApplicationById(this.db, referenceId);
    if (!entity) throw notFound(scope === 'API' ? 'Api' : 'Application', referenceId);
    const { roles, memberships } = await this.load(userId);
    const admin = PermissionService.platformRole('MANAGEMENT', roles, memberships);
    if (admin?.name === ADMIN) return allPermissions(scope);
    const groups = new Set(JSON.parse(entity.groups) as string[]);
    const maps = memberships
      .filter(
        (m) =>
          m.role_scope === scope &&
          ((m.reference_type === scope && m.reference_id === referenceId) ||
            (m.reference_type === 'GROUP' && groups.has(m.reference_id))),
      )
      .map((m) => permissionsOf(roles.get(roleKey(scope, m.role_name))));
    return mergePermissions(...maps);
  }

  /** Whether the user holds the permission; API and APPLICATION permissions need the reference id. */
  async has(userId: string, permission: Permission, referenceId?: string): Promise<boolean> {
    let map: PermissionMap;
    if (permission.scope === 'API' || permission.scope === 'APPLICATION') {
      if (referenceId === undefined) return false;
      map = await this.referencePermissions(userId, permission.scope, referenceId);
    } else {
      const access = await this.access(userId);
      map = access.roles.find((r) => r.scope === permission.scope)?.permissions ?? {};
      if (permission.scope === 'GROUP') return access.isAdmin;
    }
    return map[permission.permission]?.includes(permission.right) ?? false;
  }

  /**
   * The APIs on which the user holds a permission (directly or through a group), or `all` for an
   * administrator: the APIs whose pending subscriptions are the user's tasks, for instance.
   */
  async apisWith(userId: string, permission: string, right: string): Promise<string[] | 'all'> {
    const { roles, memberships } = await this.load(userId);
    if (PermissionService.platformRole('MANAGEMENT', roles, memberships)?.name === ADMIN) return 'all';
    const grants = (m: MembershipRow) =>
      m.role_scope === 'API' &&
      (permissionsOf(roles.get(roleKey('API', m.role_name)))[permission] ?? []).includes(right as never);
    const direct = memberships
      .filter((m) => m.reference_type === 'API' && grants(m))
      .map((m) => m.reference_id);
    const groups = memberships
      .filter((m) => m.reference_type === 'GROUP' && grants(m))
      .map((m) => m.reference_id);
    const viaGroups = await findApiIdsInGroups(this.db, groups);
    return [...new Set([...direct, ...viaGroups])];
  }

  /**
   * The users holding a permission on an API or application through a role on it, directly or through
   * one of its groups (the people to tell about a subscription to validate, for instance).
   * Administrators are not listed unless they are members. Reads through `db` (a transaction).
   */
  async holders(
    db: Executor,
    scope: 'API' | 'APPLICATION',
    referenceId: string,
    permission: string,
    right: string,
  ): Promise<string[]> {
    const entity =
      scope === 'API' ? await findApiById(db, referenceId) : await findApplicationById(db, referenceId);
    if (!entity) return [];
    const roles: RoleIndex = new Map((await findAllRoles(db)).map((r) => [roleKey(r.scope, r.name), r]));
    const grants = (m: MembershipRow) =>
      m.member_type === 'USER' &&
      m.role_scope === scope &&
      (permissionsOf(roles.get(roleKey(scope, m.role_name)))[permission] ?? []).includes(right as never);
    const groups = JSON.parse(entity.groups) as string[];
    const memberships = [
      ...(await findMembershipsOfReference(db, scope, referenceId)),
      ...(await Promise.all(groups.map((g) => findMembershipsOfReference(db, 'GROUP', g)))).flat(),
    ];
    return [...new Set(memberships.filter(grants).map((m) => m.member_id))];
  }
}
