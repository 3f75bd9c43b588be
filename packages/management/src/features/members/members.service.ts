import type { Permission } from '@portico/model';
import {
  DomainError,
  PRIMARY_OWNER,
  ValidationError,
  forbidden,
  invalidField,
  notFound,
  parsePermission,
} from '@portico/model';
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
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { displayName } from '../users/users.mapper.js';

export const PRIMARY_OWNER_UNCHANGEABLE =
  'The role of the primary owner can not be changed: transfer the ownership instead.';
export const PRIMARY_OWNER_UNREMOVABLE =
  'The primary owner can not be removed: transfer the ownership first.';
export const SYSTEM_ROLE_REFUSED = 'System roles can not be chosen.';

/** A member on the wire; `group` is set for the members inherited from one of the groups. */
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

/**
 * `POST .../members`, `POST .../members/transfer_ownership`: the user by `id`, or by `reference` (the
 * user's id as `search/users` gives it, or their username).
 */
export interface MemberInput {
  id?: string | undefined;
  reference?: string | undefined;
  role?: string | undefined;
}

/** What has members: APIs and applications, each with its role scope, permissions and messages. */
export interface MembershipScope {
  /** The memberships' reference type and role scope. */
  scope: 'API' | 'APPLICATION';
  /** The permissions' prefix: `api` (api-member-c) or `application`. */
  permissionPrefix: 'api' | 'application';
  /** In messages: 'the role [X] does not exist for APIs'. */
  pluralNoun: string;
  alreadyPrimaryOwner: string;
  transferOwnerOnly: string;
  /** The thing itself (404 when missing), with its groups as a JSON array of ids. */
  get(id: string): Promise<{ groups: string }>;
  primaryOwner(id: string): Promise<UserRow | undefined>;
}

export interface MembersDeps {
  db: Kysely<Database>;
  audit: AuditService;
  permissions: PermissionService;
  now: () => number;
}

/**
 * The members of an API or an application: direct members with a role of its scope, members inherited
 * from its groups, and the transfer of its primary ownership (the former owner keeps a chosen role).
 * PRIMARY_OWNER is never given nor taken except by transfer; system roles are never given.
 */
export class MembersService {
  protected readonly db: Kysely<Database>;
  private readonly memberC: Permission;
  private readonly memberU: Permission;

  constructor(
    protected readonly deps: MembersDeps,
    private readonly of: MembershipScope,
  ) {
    this.db = deps.db;
    this.memberC = parsePermission(`${of.permissionPrefix}-member-c`);
    this.memberU = parsePermission(`${of.permissionPrefix}-member-u`);
  }

  protected toJson(m: MembershipRow, user: UserRow, group: MemberJson['group'] = null): MemberJson {
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

  protected async usersOf(memberships: MembershipRow[]): Promise<Map<string, UserRow>> {
    const ids = [...new Set(memberships.map((m) => m.member_id))];
    return new Map((await findUsersByIds(this.db, ids)).map((u) => [u.id, u]));
  }

  private async direct(db: Executor, id: string): Promise<MembershipRow[]> {
    return (await findMembershipsOfReference(db, this.of.scope, id)).filter(
      (m) => m.member_type === 'USER' && m.role_scope === this.of.scope,
    );
  }

  /** The groups of the thing, each with its members holding a role of the scope. */
  async groups(id: string) {
    const { groups: groupIds } = await this.of.get(id);
    const groups = await findGroupsByIds(this.db, JSON.parse(groupIds) as string[]);
    const perGroup = await Promise.all(
      groups.map(async (g) => ({
        group: g,
        members: (await findMembershipsOfReference(this.db, 'GROUP', g.id)).filter(
          (m) => m.member_type === 'USER' && m.role_scope === this.of.scope,
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

  /** Direct members first (the primary owner first), then the members inherited from each group. */
  async list(id: string): Promise<MemberJson[]> {
    await this.of.get(id);
    const direct = await this.direct(this.db, id);
    const users = await this.usersOf(direct);
    const members = direct
      .filter((m) => users.has(m.member_id))
      .map((m) => this.toJson(m, users.get(m.member_id)!))
      .sort((a, b) => Number(b.role === PRIMARY_OWNER) - Number(a.role === PRIMARY_OWNER));
    const inherited = (await this.groups(id)).flatMap((g) => g.members);
    return [...members, ...inherited];
  }

  /** The user named by id, or by reference: the id `search/users` gives, or a username. */
  private async findUser(input: MemberInput): Promise<UserRow> {
    const user = input.id
      ? await findUserById(this.db, input.id)
      : input.reference
        ? ((await findUserById(this.db, input.reference)) ??
          (await findUserBySource(this.db, 'portico', input.reference)))
        : undefined;
    if (!user) {
      if (!input.id && !input.reference) throw new ValidationError('id', 'A user is required.');
      throw notFound('User', input.id ?? input.reference!);
    }
    return user;
  }

  /** A role of the scope that may be given: it exists and is not a system role. */
  private async assignableRole(db: Executor, name: string): Promise<string> {
    const role = await findRole(db, this.of.scope, name.toUpperCase());
    if (!role) throw invalidField('role', `the role [${name}] does not exist for ${this.of.pluralNoun}`);
    if (role.is_system === 1 || role.name === PRIMARY_OWNER)
      throw new ValidationError('role', SYSTEM_ROLE_REFUSED);
    return role.name;
  }

  private async may(actor: UserRow, permission: Permission, id: string): Promise<void> {
    if (!(await this.deps.permissions.has(actor.id, permission, id))) {
      throw forbidden(`${this.of.permissionPrefix}-member-${permission.right.toLowerCase()}`);
    }
  }

  private async give(trx: Executor, userId: string, id: string, role: string): Promise<void> {
    const now = this.deps.now();
    await upsertMembership(trx, {
      id: newId(),
      member_id: userId,
      member_type: 'USER',
      reference_type: this.of.scope,
      reference_id: id,
      role_scope: this.of.scope,
      role_name: role,
      created_at: now,
      updated_at: now,
    });
  }

  private async audit(
    trx: Executor,
    actor: UserRow,
    id: string,
    event: string,
    userId: string,
    before: string | undefined,
    after: string | undefined,
  ): Promise<void> {
    await this.deps.audit.record(trx, {
      referenceType: this.of.scope,
      referenceId: id,
      userId: actor.id,
      event,
      properties: { USER: userId },
      before: before ? { member: userId, role: before } : undefined,
      after: after ? { member: userId, role: after } : undefined,
    });
  }

  /**
   * `POST .../members`: adds a member (…-member-c) or changes the role of one (…-member-u). The primary
   * owner's role cannot change and system roles cannot be given.
   */
  async addOrUpdate(actor: UserRow, id: string, input: MemberInput): Promise<MemberJson> {
    await this.of.get(id);
    if (!input.role) throw new ValidationError('role', 'A role is required.');
    const user = await this.findUser(input);
    const existing = (await this.direct(this.db, id)).find((m) => m.member_id === user.id);
    await this.may(actor, existing ? this.memberU : this.memberC, id);
    const role = input.role;
    return this.db.transaction().execute(async (trx) => {
      if (existing?.role_name === PRIMARY_OWNER)
        throw new ValidationError('role', PRIMARY_OWNER_UNCHANGEABLE);
      const roleName = await this.assignableRole(trx, role);
      await this.give(trx, user.id, id, roleName);
      const event = existing ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED';
      await this.audit(trx, actor, id, event, user.id, existing?.role_name, roleName);
      const saved = (await this.direct(trx, id)).find((m) => m.member_id === user.id)!;
      return this.toJson(saved, user);
    });
  }

  /** `DELETE .../members?user=`: never the primary owner. */
  async remove(actor: UserRow, id: string, userId: string): Promise<void> {
    await this.of.get(id);
    await this.db.transaction().execute(async (trx) => {
      const existing = (await this.direct(trx, id)).find((m) => m.member_id === userId);
      if (!existing) throw notFound('Member', userId);
      if (existing.role_name === PRIMARY_OWNER) throw new ValidationError('user', PRIMARY_OWNER_UNREMOVABLE);
      await deleteMemberships(trx, {
        memberId: userId,
        memberType: 'USER',
        referenceType: this.of.scope,
        referenceId: id,
      });
      await this.audit(trx, actor, id, 'MEMBERSHIP_DELETED', userId, existing.role_name, undefined);
    });
  }

  /**
   * `POST .../members/transfer_ownership`: by the primary owner or an administrator. The new owner gets
   * PRIMARY_OWNER; the previous one the role given (the scope's default role when none).
   */
  async transferOwnership(actor: UserRow, id: string, input: MemberInput): Promise<void> {
    await this.of.get(id);
    const [access, owner] = await Promise.all([
      this.deps.permissions.access(actor.id),
      this.of.primaryOwner(id),
    ]);
    if (!access.isAdmin && owner?.id !== actor.id)
      throw new DomainError(403, this.of.transferOwnerOnly, 'FORBIDDEN');
    const newOwner = await this.findUser(input);
    if (owner?.id === newOwner.id) throw new ValidationError('id', this.of.alreadyPrimaryOwner);
    await this.db.transaction().execute(async (trx) => {
      const previousRole = input.role
        ? await this.assignableRole(trx, input.role)
        : ((await findDefaultRole(trx, this.of.scope))?.name ?? 'USER');
      const before = (await this.direct(trx, id)).find((m) => m.member_id === newOwner.id);
      await this.give(trx, newOwner.id, id, PRIMARY_OWNER);
      const event = before ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED';
      await this.audit(trx, actor, id, event, newOwner.id, before?.role_name, PRIMARY_OWNER);
      if (owner) {
        await this.give(trx, owner.id, id, previousRole);
        await this.audit(trx, actor, id, 'MEMBERSHIP_UPDATED', owner.id, PRIMARY_OWNER, previousRole);
      }
    });
  }
}
