import { ADMIN, DomainError, invalidField, notFound } from '@portico/model';
import type { Database, Executor, GroupRow, MembershipRow, UserRow } from '@portico/storage';
import {
  deleteMemberships,
  findGroupById,
  findInvitationsOfReference,
  findMembershipsOfReference,
  findUserById,
  findUsersByIds,
  upsertMembership,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { ENVIRONMENT_ID } from '../permissions/permissions.service.js';
import { displayName } from '../users/users.mapper.js';
import type { GroupAccess } from './group-access.js';
import { groupNotFound } from './group-access.js';
import type { MemberScope } from './group-roles.js';
import { assertGivableRole, defaultRole, isLocked } from './group-roles.js';

/** One entry of `POST configuration/groups/{id}/members`. */
export interface GroupMembershipInput {
  id?: string | undefined;
  reference?: string | undefined;
  roles: { scope: 'GROUP' | MemberScope; name: string }[];
}

export const membersLimitExceeded = (limit: number) =>
  new DomainError(400, `Limitation of ${limit} members exceeded`, 'GROUP_MEMBERS_LIMIT', {
    field: 'max_invitation',
  });

export const invitationForbidden = (kind: 'system' | 'email', groupId: string) =>
  new DomainError(
    400,
    `Invitation ${kind} is forbidden for group [${groupId}]`,
    'GROUP_INVITATION_FORBIDDEN',
    {
      field: `${kind}_invitation`,
    },
  );

/** The users of a group with their memberships there (one per scope), by display name. */
export async function groupMembers(
  db: Executor,
  groupId: string,
): Promise<{ user: UserRow; memberships: MembershipRow[] }[]> {
  const memberships = (await findMembershipsOfReference(db, 'GROUP', groupId)).filter(
    (m) => m.member_type === 'USER',
  );
  const users = await findUsersByIds(db, [...new Set(memberships.map((m) => m.member_id))]);
  return users
    .map((user) => ({ user, memberships: memberships.filter((m) => m.member_id === user.id) }))
    .sort((a, b) => displayName(a.user).localeCompare(displayName(b.user), 'en', { sensitivity: 'base' }));
}

/** 400 when adding `adding` members (and invitations) would pass the group's maximum. */
export async function assertRoomFor(db: Executor, group: GroupRow, adding: number): Promise<void> {
  if (group.max_invitation === null || adding === 0) return;
  const members = new Set(
    (await findMembershipsOfReference(db, 'GROUP', group.id))
      .filter((m) => m.member_type === 'USER')
      .map((m) => m.member_id),
  );
  const invitations = await findInvitationsOfReference(db, 'GROUP', group.id);
  if (members.size + invitations.length + adding > group.max_invitation)
    throw membersLimitExceeded(group.max_invitation);
}

/**
 * Gives a user roles in a group (API and APPLICATION roles on the group's items; GROUP ADMIN makes a
 * group admin). A scope left out keeps the user's current role there; an empty name takes it away.
 */
export async function giveGroupRoles(
  trx: Executor,
  group: GroupRow,
  userId: string,
  roles: Partial<Record<'GROUP' | MemberScope, string | null>>,
  now: number,
): Promise<void> {
  for (const scope of ['API', 'APPLICATION', 'GROUP'] as const) {
    const name = roles[scope];
    if (name === undefined) continue;
    if (name === null || name === '') {
      await deleteRole(trx, group.id, userId, scope);
      continue;
    }
    await upsertMembership(trx, {
      id: newId(),
      member_id: userId,
      member_type: 'USER',
      reference_type: 'GROUP',
      reference_id: group.id,
      role_scope: scope,
      role_name: name,
      created_at: now,
      updated_at: now,
    });
  }
}

async function deleteRole(trx: Executor, groupId: string, userId: string, scope: string): Promise<void> {
  await trx
    .deleteFrom('memberships')
    .where('member_type', '=', 'USER')
    .where('member_id', '=', userId)
    .where('reference_type', '=', 'GROUP')
    .where('reference_id', '=', groupId)
    .where('role_scope', '=', scope)
    .execute();
}

/** Members of a group: list, add or change (with max members, invitation option and role locks), remove. */
export class GroupMembersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly access: GroupAccess,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  async list(groupId: string) {
    if (!(await findGroupById(this.db, groupId))) throw groupNotFound(groupId);
    return groupMembers(this.db, groupId);
  }

  /** Adds or changes members; answers whether one of them is new (201) rather than changed (200). */
  async addOrUpdate(actorId: string, groupId: string, entries: GroupMembershipInput[]): Promise<boolean> {
    const superAdmin = await this.access.isSuperAdmin(actorId);
    return this.db.transaction().execute(async (trx) => {
      const { group } = await this.access.manage(actorId, groupId, trx, superAdmin);
      const current = await groupMembers(trx, groupId);
      const resolved = await Promise.all(
        entries.map(async (entry, index) => {
          const userId = entry.id ?? entry.reference;
          if (!userId) throw invalidField(`${index}.id`, 'the user is required');
          const user = await findUserById(trx, userId);
          if (!user || user.status === 'ARCHIVED')
            throw invalidField(`${index}.id`, `user [${userId}] can not be found`);
          return { entry, index, user, before: current.find((c) => c.user.id === user.id) };
        }),
      );
      const added = resolved.filter((r) => !r.before);
      if (!superAdmin) {
        if (group.system_invitation !== 1) throw invitationForbidden('system', groupId);
        await assertRoomFor(trx, group, added.length);
      }
      const now = this.now();
      for (const { entry, index, user, before } of resolved) {
        const roles = await this.rolesOf(trx, group, entry, index, superAdmin, before?.memberships);
        await giveGroupRoles(trx, group, user.id, roles, now);
        await this.audit.record(trx, {
          referenceType: 'ENVIRONMENT',
          referenceId: ENVIRONMENT_ID,
          userId: actorId,
          event: before ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
          properties: { GROUP: groupId, USER: user.id },
          before: before ? rolesMap(before.memberships) : undefined,
          after: roles,
        });
      }
      return added.length > 0;
    });
  }

  /** Takes every role of the user in the group. */
  async remove(actorId: string, groupId: string, userId: string): Promise<void> {
    const superAdmin = await this.access.isSuperAdmin(actorId);
    await this.db.transaction().execute(async (trx) => {
      await this.access.manage(actorId, groupId, trx, superAdmin);
      const before = (await groupMembers(trx, groupId)).find((m) => m.user.id === userId);
      if (!before) throw notFound('Group member', userId);
      await deleteMemberships(trx, {
        memberId: userId,
        memberType: 'USER',
        referenceType: 'GROUP',
        referenceId: groupId,
      });
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: ENVIRONMENT_ID,
        userId: actorId,
        event: 'MEMBERSHIP_DELETED',
        properties: { GROUP: groupId, USER: userId },
        before: rolesMap(before.memberships),
      });
    });
  }

  /**
   * The roles to give: checked (existing, not a system role; GROUP only ADMIN or none). A new member
   * needs an API or an application role. Where the group locks a scope, a group admin who is not super
   * admin cannot choose: a new member gets the group's default role, an existing one keeps theirs.
   */
  private async rolesOf(
    trx: Executor,
    group: GroupRow,
    entry: GroupMembershipInput,
    index: number,
    superAdmin: boolean,
    before: MembershipRow[] | undefined,
  ): Promise<Partial<Record<'GROUP' | MemberScope, string | null>>> {
    const roles: Partial<Record<'GROUP' | MemberScope, string | null>> = {};
    for (const { scope, name } of entry.roles) {
      const field = `${index}.roles.${scope}`;
      if (scope === 'GROUP') {
        if (name !== '' && name !== ADMIN) throw invalidField(field, 'a group role is ADMIN or none');
      } else if (name !== '') {
        await assertGivableRole(trx, scope, name, field);
      }
      roles[scope] = name;
    }
    if (!superAdmin) {
      for (const scope of ['API', 'APPLICATION'] as const) {
        if (!isLocked(group, scope)) continue;
        const held = before?.find((m) => m.role_scope === scope)?.role_name;
        if (held) delete roles[scope];
        else if (roles[scope]) roles[scope] = await defaultRole(trx, group, scope);
      }
    }
    const hasItemRole =
      !!roles.API ||
      !!roles.APPLICATION ||
      (before ?? []).some((m) => m.role_scope !== 'GROUP' && roles[m.role_scope as MemberScope] !== '');
    if (!hasItemRole) throw invalidField(`${index}.roles`, 'Select at least one role (API or application)');
    return roles;
  }
}

function rolesMap(memberships: MembershipRow[]): Record<string, string> {
  return Object.fromEntries(memberships.map((m) => [m.role_scope, m.role_name]));
}
