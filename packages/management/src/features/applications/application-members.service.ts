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
import type { MemberInput, MemberJson } from '../apis/api-members.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { displayName } from '../users/users.mapper.js';
import type { ApplicationService } from './applications.service.js';

export const APP_PRIMARY_OWNER_UNCHANGEABLE =
  'The role of the primary owner can not be changed: transfer the ownership instead.';
export const APP_PRIMARY_OWNER_UNREMOVABLE =
  'The primary owner can not be removed: transfer the ownership first.';
export const APP_SYSTEM_ROLE_REFUSED = 'System roles can not be chosen.';
export const APP_ALREADY_PRIMARY_OWNER = 'This user is already the primary owner of the application.';
export const APP_TRANSFER_OWNER_ONLY =
  'Only the primary owner of the application or an administrator may transfer its ownership.';

const MEMBER_C = parsePermission('application-member-c');
const MEMBER_U = parsePermission('application-member-u');

export interface ApplicationMembersDeps {
  db: Kysely<Database>;
  applications: ApplicationService;
  audit: AuditService;
  permissions: PermissionService;
  now: () => number;
}

/**
 * The members of an application: direct members with their application role, members inherited from
 * its groups, and the transfer of its primary ownership (the former owner keeps a chosen role).
 */
export class ApplicationMembersService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: ApplicationMembersDeps) {
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

  private async direct(db: Executor, applicationId: string): Promise<MembershipRow[]> {
    return (await findMembershipsOfReference(db, 'APPLICATION', applicationId)).filter(
      (m) => m.member_type === 'USER' && m.role_scope === 'APPLICATION',
    );
  }

  private async users(memberships: MembershipRow[]): Promise<Map<string, UserRow>> {
    const ids = [...new Set(memberships.map((m) => m.member_id))];
    return new Map((await findUsersByIds(this.db, ids)).map((u) => [u.id, u]));
  }

  /** Direct members (the primary owner first), then those inherited from each group, with their group. */
  async list(applicationId: string): Promise<MemberJson[]> {
    const application = await this.deps.applications.get(applicationId);
    const direct = await this.direct(this.db, applicationId);
    const groups = await findGroupsByIds(this.db, JSON.parse(application.groups) as string[]);
    const inherited = (
      await Promise.all(
        groups.map(async (g) =>
          (await findMembershipsOfReference(this.db, 'GROUP', g.id))
            .filter((m) => m.member_type === 'USER' && m.role_scope === 'APPLICATION')
            .map((m) => ({ m, group: { id: g.id, name: g.name } })),
        ),
      )
    ).flat();
    const users = await this.users([...direct, ...inherited.map((i) => i.m)]);
    return [
      ...direct
        .filter((m) => users.has(m.member_id))
        .map((m) => this.toJson(m, users.get(m.member_id)!))
        .sort((a, b) => Number(b.role === PRIMARY_OWNER) - Number(a.role === PRIMARY_OWNER)),
      ...inherited
        .filter((i) => users.has(i.m.member_id))
        .map((i) => this.toJson(i.m, users.get(i.m.member_id)!, i.group)),
    ];
  }

  private async findUser(input: MemberInput): Promise<UserRow> {
    const user = input.id
      ? await findUserById(this.db, input.id)
      : input.reference
        ? await findUserBySource(this.db, 'portico', input.reference)
        : undefined;
    if (!user) {
      if (!input.id && !input.reference) throw new ValidationError('id', 'A user is required.');
      throw notFound('User', input.id ?? input.reference!);
    }
    return user;
  }

  private async assignableRole(db: Executor, name: string): Promise<string> {
    const role = await findRole(db, 'APPLICATION', name.toUpperCase());
    if (!role) throw invalidField('role', `the role [${name}] does not exist for applications`);
    if (role.is_system === 1 || role.name === PRIMARY_OWNER)
      throw new ValidationError('role', APP_SYSTEM_ROLE_REFUSED);
    return role.name;
  }

  private async may(actor: UserRow, permission: Permission, applicationId: string): Promise<void> {
    if (!(await this.deps.permissions.has(actor.id, permission, applicationId)))
      throw forbidden(`application-member-${permission.right.toLowerCase()}`);
  }

  private async give(trx: Executor, userId: string, applicationId: string, role: string): Promise<void> {
    const now = this.deps.now();
    await upsertMembership(trx, {
      id: newId(),
      member_id: userId,
      member_type: 'USER',
      reference_type: 'APPLICATION',
      reference_id: applicationId,
      role_scope: 'APPLICATION',
      role_name: role,
      created_at: now,
      updated_at: now,
    });
  }

  private async audit(
    trx: Executor,
    actor: UserRow,
    applicationId: string,
    event: string,
    userId: string,
    before: string | undefined,
    after: string | undefined,
  ): Promise<void> {
    await this.deps.audit.record(trx, {
      referenceType: 'APPLICATION',
      referenceId: applicationId,
      userId: actor.id,
      event,
      properties: { USER: userId },
      before: before ? { member: userId, role: before } : undefined,
      after: after ? { member: userId, role: after } : undefined,
    });
  }

  /** `POST applications/{id}/members`: adds a member (application-member-c) or changes its role (-u). */
  async addOrUpdate(actor: UserRow, applicationId: string, input: MemberInput): Promise<MemberJson> {
    await this.deps.applications.get(applicationId);
    if (!input.role) throw new ValidationError('role', 'A role is required.');
    const user = await this.findUser(input);
    const existing = (await this.direct(this.db, applicationId)).find((m) => m.member_id === user.id);
    await this.may(actor, existing ? MEMBER_U : MEMBER_C, applicationId);
    const role = input.role;
    return this.db.transaction().execute(async (trx) => {
      if (existing?.role_name === PRIMARY_OWNER)
        throw new ValidationError('role', APP_PRIMARY_OWNER_UNCHANGEABLE);
      const roleName = await this.assignableRole(trx, role);
      await this.give(trx, user.id, applicationId, roleName);
      await this.audit(
        trx,
        actor,
        applicationId,
        existing ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
        user.id,
        existing?.role_name,
        roleName,
      );
      const saved = (await this.direct(trx, applicationId)).find((m) => m.member_id === user.id)!;
      return this.toJson(saved, user);
    });
  }

  /** `DELETE applications/{id}/members?user=`: never the primary owner. */
  async remove(actor: UserRow, applicationId: string, userId: string): Promise<void> {
    await this.deps.applications.get(applicationId);
    await this.db.transaction().execute(async (trx) => {
      const existing = (await this.direct(trx, applicationId)).find((m) => m.member_id === userId);
      if (!existing) throw notFound('Member', userId);
      if (existing.role_name === PRIMARY_OWNER)
        throw new ValidationError('user', APP_PRIMARY_OWNER_UNREMOVABLE);
      await deleteMemberships(trx, {
        memberId: userId,
        memberType: 'USER',
        referenceType: 'APPLICATION',
        referenceId: applicationId,
      });
      await this.audit(
        trx,
        actor,
        applicationId,
        'MEMBERSHIP_DELETED',
        userId,
        existing.role_name,
        undefined,
      );
    });
  }

  /**
   * `POST applications/{id}/members/transfer_ownership`: by the primary owner or an administrator; the
   * former owner keeps the role given (the default application role when none).
   */
  async transferOwnership(actor: UserRow, applicationId: string, input: MemberInput): Promise<void> {
    await this.deps.applications.get(applicationId);
    const [access, owners] = await Promise.all([
      this.deps.permissions.access(actor.id),
      this.deps.applications.owners([applicationId]),
    ]);
    const owner = owners.get(applicationId);
    if (!access.isAdmin && owner?.id !== actor.id)
      throw new DomainError(403, APP_TRANSFER_OWNER_ONLY, 'FORBIDDEN');
    const newOwner = await this.findUser(input);
    if (owner?.id === newOwner.id) throw new ValidationError('id', APP_ALREADY_PRIMARY_OWNER);
    await this.db.transaction().execute(async (trx) => {
      const previousRole = input.role
        ? await this.assignableRole(trx, input.role)
        : ((await findDefaultRole(trx, 'APPLICATION'))?.name ?? 'USER');
      const before = (await this.direct(trx, applicationId)).find((m) => m.member_id === newOwner.id);
      await this.give(trx, newOwner.id, applicationId, PRIMARY_OWNER);
      await this.audit(
        trx,
        actor,
        applicationId,
        before ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
        newOwner.id,
        before?.role_name,
        PRIMARY_OWNER,
      );
      if (owner) {
        await this.give(trx, owner.id, applicationId, previousRole);
        await this.audit(
          trx,
          actor,
          applicationId,
          'MEMBERSHIP_UPDATED',
          owner.id,
          PRIMARY_OWNER,
          previousRole,
        );
      }
    });
  }
}
