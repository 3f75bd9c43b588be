import { ADMIN, DomainError, invalidField, notFound } from '@portico/model';
import type { Database, UserRow } from '@portico/storage';
import {
  deleteMemberships,
  findMembershipsByRole,
  findMembershipsOfMember,
  findRole,
  findUserById,
  findUsersByIds,
  upsertMembership,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { ENVIRONMENT_ID } from '../permissions/permissions.service.js';
import { displayName } from '../users/users.mapper.js';
import { roleNotFound } from './roles.service.js';

/** The scopes whose roles are given to users of the platform. */
export type PlatformScope = 'MANAGEMENT' | 'PORTAL';
export const LAST_ADMIN = 'the platform needs at least one administrator';

export function platformScope(scope: string): PlatformScope {
  if (scope !== 'MANAGEMENT' && scope !== 'PORTAL')
    throw invalidField('scope', 'only MANAGEMENT and PORTAL roles are given to users');
  return scope;
}

const key = (scope: string, name: string) => `${scope}:${name}`;

/**
 * Who holds a MANAGEMENT or PORTAL role: each user has at most one role per scope (a user without one
 * has the scope's default role). Giving a role replaces the user's role of that scope.
 */
export class RoleMembersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  /** The users given the role, by display name. */
  async members(scope: PlatformScope, name: string): Promise<UserRow[]> {
    if (!(await findRole(this.db, scope, name))) throw roleNotFound(scope, name);
    const ids = (await findMembershipsByRole(this.db, scope, name))
      .filter(
        (m) => m.member_type === 'USER' && m.reference_type === scope && m.reference_id === ENVIRONMENT_ID,
      )
      .map((m) => m.member_id);
    const users = (await findUsersByIds(this.db, ids)).filter((u) => u.status !== 'ARCHIVED');
    return users.sort(
      (a, b) =>
        displayName(a).localeCompare(displayName(b), 'en', { sensitivity: 'base' }) ||
        a.id.localeCompare(b.id),
    );
  }

  /** Gives the role to a user (`id`, or the `reference` that user search answers). */
  async add(
    actorId: string,
    scope: PlatformScope,
    name: string,
    member: { id?: string | undefined; reference?: string | undefined },
  ) {
    const userId = member.id ?? member.reference;
    if (!userId) throw invalidField('id', 'the user is required');
    await this.db.transaction().execute(async (trx) => {
      const role = await findRole(trx, scope, name);
      if (!role) throw roleNotFound(scope, name);
      const user = await findUserById(trx, userId);
      if (!user || user.status === 'ARCHIVED') throw invalidField('id', `user [${userId}] can not be found`);
      const before = (await findMembershipsOfMember(trx, 'USER', user.id)).find(
        (m) => m.reference_type === scope && m.reference_id === ENVIRONMENT_ID && m.role_scope === scope,
      );
      if (before?.role_name === name) return;
      if (before?.role_name === ADMIN && scope === 'MANAGEMENT') await this.assertNotLastAdmin(trx, user.id);
      const now = this.now();
      await upsertMembership(trx, {
        id: newId(),
        member_id: user.id,
        member_type: 'USER',
        reference_type: scope,
        reference_id: ENVIRONMENT_ID,
        role_scope: scope,
        role_name: name,
        created_at: now,
        updated_at: now,
      });
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: ENVIRONMENT_ID,
        userId: actorId,
        event: before ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
        properties: { USER: user.id, ROLE: key(scope, name) },
        before: before ? { member: user.id, role: key(scope, before.role_name) } : undefined,
        after: { member: user.id, role: key(scope, name) },
      });
    });
  }

  /** Takes the role from the user, who then has the scope's default role. */
  async remove(actorId: string, scope: PlatformScope, name: string, userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await findRole(trx, scope, name))) throw roleNotFound(scope, name);
      const held = (await findMembershipsOfMember(trx, 'USER', userId)).find(
        (m) => m.reference_type === scope && m.reference_id === ENVIRONMENT_ID && m.role_scope === scope,
      );
      if (held?.role_name !== name) throw notFound('Role member', `${key(scope, name)}:${userId}`);
      if (scope === 'MANAGEMENT' && name === ADMIN) await this.assertNotLastAdmin(trx, userId);
      await deleteMemberships(trx, {
        memberId: userId,
        memberType: 'USER',
        referenceType: scope,
        referenceId: ENVIRONMENT_ID,
      });
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: ENVIRONMENT_ID,
        userId: actorId,
        event: 'MEMBERSHIP_DELETED',
        properties: { USER: userId, ROLE: key(scope, name) },
        before: { member: userId, role: key(scope, name) },
      });
    });
  }

  private async assertNotLastAdmin(trx: Kysely<Database>, leaving: string): Promise<void> {
    const admins = (await findMembershipsByRole(trx, 'MANAGEMENT', ADMIN)).filter(
      (m) => m.member_type === 'USER' && m.reference_type === 'MANAGEMENT' && m.member_id !== leaving,
    );
    const active = (
      await findUsersByIds(
        trx,
        admins.map((m) => m.member_id),
      )
    ).filter((u) => u.status === 'ACTIVE');
    if (active.length === 0) throw new DomainError(400, LAST_ADMIN, 'LAST_ADMINISTRATOR', { field: 'user' });
  }
}
