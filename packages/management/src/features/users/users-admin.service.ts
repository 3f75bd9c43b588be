import { DomainError, invalidField, notFound } from '@portico/model';
import type { Database, UserRow } from '@portico/storage';
import {
  countPrimaryOwnerships,
  deleteMembershipsOfMember,
  deleteNotificationsOfUser,
  endSessionsBefore,
  findApiIdsInGroups,
  findApisByIds,
  findApplications,
  findApplicationsByIds,
  findGroupsByIds,
  findMembershipsOfMember,
  findUserById,
  supersedeTokens,
  updateUser,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { auditedUser } from './users.mapper.js';

export const stillPrimaryOwner = (apis: number, applications: number) =>
  new DomainError(
    400,
    `The user is still the primary owner of ${apis} API(s) and ${applications} application(s): transfer their ownership first`,
    'STILL_PRIMARY_OWNER',
    { field: 'user' },
  );
export const CANNOT_DELETE_ONESELF = 'you can not delete your own account';

export type MembershipType = 'api' | 'application';

export interface UserGroupJson {
  id: string;
  name: string;
  /** The user's role in the group by scope: `{ API: 'OWNER', APPLICATION: 'USER', GROUP: 'ADMIN' }`. */
  roles: Record<string, string>;
}

export interface UserMembershipsJson {
  memberships: {
    reference: string;
    type: 'API' | 'APPLICATION';
    roles: Record<string, string>;
    source: 'direct' | 'group';
  }[];
  metadata: Record<string, Record<string, string>>;
}

/** Administration of other users: deletion, and what they belong to (groups, APIs, applications). */
export class UsersAdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  /** A user that exists and is not deleted (404 otherwise). */
  async load(id: string): Promise<UserRow> {
    const user = await findUserById(this.db, id);
    if (!user || user.status === 'ARCHIVED') throw notFound('User', id);
    return user;
  }

  /**
   * Deletes a user who owns no API nor application: the account is archived (kept for audits and
   * subscriptions, named as before, without email, password nor picture), every role, membership,
   * notification and link ends, and every session closes. Its email can then be used again.
   */
  async remove(actorId: string, id: string): Promise<void> {
    if (actorId === id) throw invalidField('user', CANNOT_DELETE_ONESELF);
    await this.db.transaction().execute(async (trx) => {
      const user = await findUserById(trx, id);
      if (!user || user.status === 'ARCHIVED') throw notFound('User', id);
      const owned = await countPrimaryOwnerships(trx, id);
      if (owned.apis > 0 || owned.applications > 0) throw stillPrimaryOwner(owned.apis, owned.applications);
      const now = this.now();
      const changes = {
        status: 'ARCHIVED',
        source_id: `deleted-${user.id}`,
        email: null,
        password: null,
        picture: null,
        updated_at: Math.max(now, user.updated_at + 1),
      };
      await updateUser(trx, id, changes);
      await deleteMembershipsOfMember(trx, 'USER', id);
      await deleteNotificationsOfUser(trx, id);
      await supersedeTokens(trx, id, 'USER_REGISTRATION', now);
      await supersedeTokens(trx, id, 'RESET_PASSWORD', now);
      await endSessionsBefore(trx, id, now + 1, null);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'USER_DELETED',
        properties: { USER: id },
        before: auditedUser(user),
        after: auditedUser({ ...user, ...changes }),
      });
    });
  }

  /** The groups of the user with the user's role in each. */
  async groups(id: string): Promise<UserGroupJson[]> {
    await this.load(id);
    const memberships = (await findMembershipsOfMember(this.db, 'USER', id)).filter(
      (m) => m.reference_type === 'GROUP',
    );
    const groups = await findGroupsByIds(this.db, [...new Set(memberships.map((m) => m.reference_id))]);
    return groups
      .map((g) => ({
        id: g.id,
        name: g.name,
        roles: Object.fromEntries(
          memberships.filter((m) => m.reference_id === g.id).map((m) => [m.role_scope, m.role_name]),
        ),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The APIs or applications the user is a member of, directly or through a group holding a role of
   * that scope, with their metadata by id (name, version and visibility; name, type and status).
   */
  async memberships(id: string, type: MembershipType): Promise<UserMembershipsJson> {
    await this.load(id);
    const scope = type === 'api' ? 'API' : 'APPLICATION';
    const all = await findMembershipsOfMember(this.db, 'USER', id);
    const direct = all.filter((m) => m.reference_type === scope && m.role_scope === scope);
    const groupIds = [
      ...new Set(
        all.filter((m) => m.reference_type === 'GROUP' && m.role_scope === scope).map((m) => m.reference_id),
      ),
    ];
    const viaGroups =
      scope === 'API'
        ? await findApiIdsInGroups(this.db, groupIds)
        : (
            await Promise.all(groupIds.map((group) => findApplications(this.db, { group, status: 'ACTIVE' })))
          ).flatMap((apps) => apps.map((a) => a.id));
    const memberships: UserMembershipsJson['memberships'] = direct.map((m) => ({
      reference: m.reference_id,
      type: scope,
      roles: { [scope]: m.role_name },
      source: 'direct',
    }));
    for (const ref of new Set(viaGroups)) {
      if (!memberships.some((m) => m.reference === ref))
        memberships.push({ reference: ref, type: scope, roles: {}, source: 'group' });
    }
    const ids = memberships.map((m) => m.reference);
    const metadata: UserMembershipsJson['metadata'] = {};
    if (scope === 'API') {
      for (const api of await findApisByIds(this.db, ids))
        metadata[api.id] = {
          name: api.name,
          version: api.version,
          visibility: api.visibility,
          state: api.state,
        };
    } else {
      for (const app of await findApplicationsByIds(this.db, ids))
        metadata[app.id] = { name: app.name, type: app.type, status: app.status };
    }
    // Archived applications and deleted APIs are not shown.
    const shown = memberships.filter(
      (m) => metadata[m.reference] && metadata[m.reference]!.status !== 'ARCHIVED',
    );
    return {
      memberships: shown,
      metadata: Object.fromEntries(shown.map((m) => [m.reference, metadata[m.reference]!])),
    };
  }
}
