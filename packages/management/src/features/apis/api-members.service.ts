import type { Permission } from '@portico/model';
import { PRIMARY_OWNER, parsePermission } from '@portico/model';
import type { Database, Executor, MembershipRow, UserRow } from '@portico/storage';
import {
  deleteMemberships,
  findDefaultRole,
  findGroupsByIds,
  findMembershipsOfReference,
  findRole,
  findUserById,
  findUserBySource,
  findUsersByIds,
  upsertMembership,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { forbidden } from '@portico/model';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { displayName } from '../users/users.mapper.js';
import { newId } from '../../http/ids.js';
import {
  ALREADY_PRIMARY_OWNER,
  PRIMARY_OWNER_UNCHANGEABLE,
  PRIMARY_OWNER_UNREMOVABLE,
  SYSTEM_ROLE_REFUSED,
  memberNotFound,
  memberRule,
  roleNotFound,
  transferOwnerOnly,
  userNotFound,
} from './apis.errors.js';
import type { ApiService } from './apis.service.js';

/** A member on the wire; `group` is set for the members an API inherits from one of its groups. */
export interface MemberJson {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  role: string;
  type: 'USER';
  group: { id: string; name: string } | null;
  created_at: number;
  updated_at: number;
}

/** `POST apis/{id}/members`, `POST .../transfer_ownership`: the user by id, or by username. */
export interface MemberInput {
  id?: string | undefined;
  reference?: string | undefined;
  role?: string | undefined;
}

const MEMBER_C = parsePermission('api-member-c');
const MEMBER_U = parsePermission('api-member-u');

export interface ApiMembersDeps {
  db: Kysely<Database>;
  apis: ApiService;
  audit: AuditService;
  permissions: PermissionService;
  now: () => number;
}

/**
 * The members of an API: direct members with their API role, members inherited from the API's groups,
 * the primary owner and its transfer. PRIMARY_OWNER is never given nor taken here except by transfer.
 */
export class ApiMembersService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: ApiMembersDeps) {
    this.db = deps.db;
  }

  private toJson(m: MembershipRow, user: UserRow, group: MemberJson['group'] = null): MemberJson {
    return {
      id: user.id,
      username: user.source_id,
      displayName: displayName(user),
      email: user.email,
      role: m.role_name,
      type: 'USER',
      group,
      created_at: m.created_at,
      updated_at: m.updated_at,
    };
  }

  private async usersOf(memberships: MembershipRow[]): Promise<Map<string, UserRow>> {
    const ids = [...new Set(memberships.map((m) => m.member_id))];
    return new Map((await findUsersByIds(this.db, ids)).map((u) => [u.id, u]));
  }

  private async directMembers(db: Executor, apiId: string): Promise<MembershipRow[]> {
    return (await findMembershipsOfReference(db, 'API', apiId)).filter(
      (m) => m.member_type === 'USER' && m.role_scope === 'API',
    );
  }

  /** The groups of the API with their members holding an API role (`GET apis/{id}/groups`). */
  async groups(apiId: string) {
    const api = await this.deps.apis.get(apiId);
    const groups = await findGroupsByIds(this.db, JSON.parse(api.groups) as string[]);
    const perGroup = await Promise.all(
      groups.map(async (g) => ({
        group: g,
        members: (await findMembershipsOfReference(this.db, 'GROUP', g.id)).filter(
          (m) => m.member_type === 'USER' && m.role_scope === 'API',
        ),
      })),
    );
    const users = await this.usersOf(perGroup.flatMap((g) => g.members));
    return perGroup.map(({ group, members }) => ({
      id: group.id,
      name: group.name,
      members: members
        .filter((m) => users.has(m.member_id))
        .map((m) => this.toJson(m, users.get(m.member_id)!, { id: group.id, name: group.name })),
    }));
  }

  /** Direct members first (primary owner first), then the members inherited from each group. */
  async list(apiId: string): Promise<MemberJson[]> {
    await this.deps.apis.get(apiId);
    const direct = await this.directMembers(this.db, apiId);
    const users = await this.usersOf(direct);
    const members = direct
      .filter((m) => users.has(m.member_id))
      .map((m) => this.toJson(m, users.get(m.member_id)!))
      .sort((a, b) => Number(b.role === PRIMARY_OWNER) - Number(a.role === PRIMARY_OWNER));
    const inherited = (await this.groups(apiId)).flatMap((g) => g.members);
    return [...members, ...inherited];
  }

  private async findUser(input: MemberInput, field = 'id'): Promise<UserRow> {
    const user = input.id
      ? await findUserById(this.db, input.id)
      : input.reference
        ? await findUserBySource(this.db, 'portico', input.reference)
        : undefined;
    if (!user) {
      if (!input.id && !input.reference) throw memberRule('A user is required.', field);
      throw userNotFound(input.id ?? input.reference!);
    }
    return user;
  }

  /** An API role that may be given: it exists and is not a system role. */
  private async assignableRole(db: Executor, name: string): Promise<string> {
    const role = await findRole(db, 'API', name.toUpperCase());
    if (!role) throw roleNotFound(name);
    if (role.is_system === 1 || role.name === PRIMARY_OWNER) throw memberRule(SYSTEM_ROLE_REFUSED);
    return role.name;
  }

  private async may(actor: UserRow, permission: Permission, apiId: string): Promise<void> {
    if (!(await this.deps.permissions.has(actor.id, permission, apiId))) {
      throw forbidden(`api-${permission.permission.toLowerCase()}-${permission.right.toLowerCase()}`);
    }
  }

  /**
   * `POST apis/{id}/members`: adds a member (api-member-c) or changes the role of one
   * (api-member-u). The primary owner's role cannot change and system roles cannot be given.
   */
  async addOrUpdate(actor: UserRow, apiId: string, input: MemberInput): Promise<MemberJson> {
    await this.deps.apis.get(apiId);
    if (!input.role) throw memberRule('A role is required.');
    const user = await this.findUser(input);
    const existing = (await this.directMembers(this.db, apiId)).find((m) => m.member_id === user.id);
    await this.may(actor, existing ? MEMBER_U : MEMBER_C, apiId);
    const role = input.role;
    return this.db.transaction().execute(async (trx) => {
      if (existing?.role_name === PRIMARY_OWNER) throw memberRule(PRIMARY_OWNER_UNCHANGEABLE);
      const roleName = await this.assignableRole(trx, role);
      const now = this.deps.now();
      await upsertMembership(trx, {
        id: newId(),
        member_id: user.id,
        member_type: 'USER',
        reference_type: 'API',
        reference_id: apiId,
        role_scope: 'API',
        role_name: roleName,
        created_at: now,
        updated_at: now,
      });
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        userId: actor.id,
        event: existing ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
        properties: { USER: user.id },
        before: existing ? { member: user.id, role: existing.role_name } : undefined,
        after: { member: user.id, role: roleName },
      });
      const saved = (await this.directMembers(trx, apiId)).find((m) => m.member_id === user.id)!;
      return this.toJson(saved, user);
    });
  }

  /** `DELETE apis/{id}/members?user=`: the primary owner cannot be removed. */
  async remove(actor: UserRow, apiId: string, userId: string): Promise<void> {
    await this.deps.apis.get(apiId);
    await this.db.transaction().execute(async (trx) => {
      const existing = (await this.directMembers(trx, apiId)).find((m) => m.member_id === userId);
      if (!existing) throw memberNotFound(userId);
      if (existing.role_name === PRIMARY_OWNER) throw memberRule(PRIMARY_OWNER_UNREMOVABLE, 'user');
      await deleteMemberships(trx, {
        memberId: userId,
        memberType: 'USER',
        referenceType: 'API',
        referenceId: apiId,
      });
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        userId: actor.id,
        event: 'MEMBERSHIP_DELETED',
        properties: { USER: userId },
        before: { member: userId, role: existing.role_name },
      });
    });
  }

  /**
   * `POST apis/{id}/members/transfer_ownership`: by the primary owner or an administrator. The new
   * owner gets PRIMARY_OWNER; the previous one the role given (the default API role when none).
   */
  async transferOwnership(actor: UserRow, apiId: string, input: MemberInput): Promise<void> {
    await this.deps.apis.get(apiId);
    const [access, owner] = await Promise.all([
      this.deps.permissions.access(actor.id),
      this.deps.apis.primaryOwner(apiId),
    ]);
    if (!access.isAdmin && owner?.id !== actor.id) throw transferOwnerOnly();
    const newOwner = await this.findUser(input);
    if (owner?.id === newOwner.id) throw memberRule(ALREADY_PRIMARY_OWNER, 'id');
    await this.db.transaction().execute(async (trx) => {
      const previousRole = input.role
        ? await this.assignableRole(trx, input.role)
        : ((await findDefaultRole(trx, 'API'))?.name ?? 'USER');
      const members = await this.directMembers(trx, apiId);
      const now = this.deps.now();
      const give = (memberId: string, role: string) =>
        upsertMembership(trx, {
          id: newId(),
          member_id: memberId,
          member_type: 'USER',
          reference_type: 'API',
          reference_id: apiId,
          role_scope: 'API',
          role_name: role,
          created_at: now,
          updated_at: now,
        });
      await give(newOwner.id, PRIMARY_OWNER);
      const before = members.find((m) => m.member_id === newOwner.id);
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        userId: actor.id,
        event: before ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
        properties: { USER: newOwner.id },
        before: before ? { member: newOwner.id, role: before.role_name } : undefined,
        after: { member: newOwner.id, role: PRIMARY_OWNER },
      });
      if (owner) {
        await give(owner.id, previousRole);
        await this.deps.audit.record(trx, {
          referenceType: 'API',
          referenceId: apiId,
          userId: actor.id,
          event: 'MEMBERSHIP_UPDATED',
          properties: { USER: owner.id },
          before: { member: owner.id, role: PRIMARY_OWNER },
          after: { member: owner.id, role: previousRole },
        });
      }
    });
  }
}
