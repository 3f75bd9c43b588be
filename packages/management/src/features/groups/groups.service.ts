import { invalidField } from '@portico/model';
import type { Database, GroupRow } from '@portico/storage';
import {
  addGroupToAll,
  deleteGroup,
  removeExcludedGroupFromPages,
  deleteInvitationsOfReference,
  deleteMembershipsOfReference,
  findAllGroups,
  findApisOfGroup,
  findApplicationsOfGroup,
  findGroupById,
  groupNameTaken,
  insertGroup,
  removeGroupFromAll,
  updateGroup,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { ENVIRONMENT_ID } from '../permissions/permissions.service.js';
import type { GroupAccess } from './group-access.js';
import { groupNotFound } from './group-access.js';
import type { GroupEvent } from './groups.mapper.js';
import { assertGivableRole } from './group-roles.js';

/** What a group form sends (POST and PUT configuration/groups). */
export interface GroupInput {
  name: string;
  roles?: { API?: string | null | undefined; APPLICATION?: string | null | undefined } | undefined;
  event_rules?: { event: GroupEvent }[] | undefined;
  max_invitation?: number | null | undefined;
  lock_api_role?: boolean | undefined;
  lock_application_role?: boolean | undefined;
  system_invitation?: boolean | undefined;
  email_invitation?: boolean | undefined;
}

export const groupNameExists = (name: string) =>
  invalidField('name', `A group with the name [${name}] already exists.`);

const flag = (value: boolean | undefined) => (value ? 1 : 0);

/** Groups (console-applications-and-settings.md 2.3, 5, 6): create, update, delete, associate to all. */
export class GroupsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly access: GroupAccess,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  /** Every group by name, each with whether the caller may manage it. */
  async list(userId: string): Promise<{ group: GroupRow; manageable: boolean }[]> {
    const [groups, superAdmin, adminOf] = await Promise.all([
      findAllGroups(this.db),
      this.access.isSuperAdmin(userId),
      this.access.adminOf(userId),
    ]);
    return groups.map((group) => ({ group, manageable: superAdmin || adminOf.has(group.id) }));
  }

  async get(userId: string, id: string): Promise<{ group: GroupRow; manageable: boolean }> {
    const group = await findGroupById(this.db, id);
    if (!group) throw groupNotFound(id);
    return { group, manageable: await this.access.manageable(userId, id) };
  }

  async create(actorId: string, input: GroupInput): Promise<GroupRow> {
    return this.db.transaction().execute(async (trx) => {
      await this.checkRoles(trx, input.roles);
      if (await groupNameTaken(trx, input.name)) throw groupNameExists(input.name);
      const now = this.now();
      const row: GroupRow = {
        id: newId(),
        name: input.name,
        event_rules: JSON.stringify(uniqueRules(input.event_rules)),
        max_invitation: input.max_invitation ?? null,
        lock_api_role: flag(input.lock_api_role),
        lock_application_role: flag(input.lock_application_role),
        system_invitation: flag(input.system_invitation),
        email_invitation: flag(input.email_invitation),
        api_role: input.roles?.API || null,
        application_role: input.roles?.APPLICATION || null,
        created_at: now,
        updated_at: now,
      };
      await insertGroup(trx, row);
      await this.record(trx, actorId, 'GROUP_CREATED', row.id, undefined, row);
      return row;
    });
  }

  /**
   * Changes a group. A group ADMIN who is not super admin keeps the group's max members, invitation
   * options and role locks as they are, and its default roles where they are locked.
   */
  async update(actorId: string, id: string, input: GroupInput): Promise<GroupRow> {
    const superAdmin = await this.access.isSuperAdmin(actorId);
    return this.db.transaction().execute(async (trx) => {
      const { group } = await this.access.manage(actorId, id, trx, superAdmin);
      await this.checkRoles(trx, input.roles);
      if (await groupNameTaken(trx, input.name, id)) throw groupNameExists(input.name);
      const changes = {
        name: input.name,
        event_rules: JSON.stringify(uniqueRules(input.event_rules)),
        api_role: input.roles?.API || null,
        application_role: input.roles?.APPLICATION || null,
        updated_at: this.now(),
        ...(superAdmin
          ? {
              max_invitation: input.max_invitation ?? null,
              lock_api_role: flag(input.lock_api_role),
              lock_application_role: flag(input.lock_application_role),
              system_invitation: flag(input.system_invitation),
              email_invitation: flag(input.email_invitation),
            }
          : {}),
      };
      if (!superAdmin && group.lock_api_role === 1) changes.api_role = group.api_role;
      if (!superAdmin && group.lock_application_role === 1) changes.application_role = group.application_role;
      await updateGroup(trx, id, changes);
      const after = { ...group, ...changes };
      await this.record(trx, actorId, 'GROUP_UPDATED', id, group, after);
      return after;
    });
  }

  /** Deletes a group: its members, invitations, and its place on APIs and applications go with it. */
  async remove(actorId: string, id: string): Promise<void> {
    const superAdmin = await this.access.isSuperAdmin(actorId);
    await this.db.transaction().execute(async (trx) => {
      const { group } = await this.access.manage(actorId, id, trx, superAdmin);
      const now = this.now();
      await deleteMembershipsOfReference(trx, 'GROUP', id);
      await deleteInvitationsOfReference(trx, 'GROUP', id);
      await removeGroupFromAll(trx, 'apis', id, now);
      await removeGroupFromAll(trx, 'applications', id, now);
      await removeExcludedGroupFromPages(trx, id, now);
      await deleteGroup(trx, id);
      await this.record(trx, actorId, 'GROUP_DELETED', id, group, undefined);
    });
  }

  /** Attaches the group to every existing API or application; answers the group. */
  async associate(actorId: string, id: string, type: 'api' | 'application'): Promise<GroupRow> {
    const superAdmin = await this.access.isSuperAdmin(actorId);
    return this.db.transaction().execute(async (trx) => {
      const { group } = await this.access.manage(actorId, id, trx, superAdmin);
      const changed = await addGroupToAll(trx, type === 'api' ? 'apis' : 'applications', id);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: ENVIRONMENT_ID,
        userId: actorId,
        event: 'GROUP_UPDATED',
        properties: { GROUP: id, ASSOCIATED: type, COUNT: String(changed) },
      });
      return group;
    });
  }

  /** The APIs or the active applications the group is attached to, by name. */
  async dependents(id: string, type: 'api' | 'application') {
    if (!(await findGroupById(this.db, id))) throw groupNotFound(id);
    return type === 'api' ? findApisOfGroup(this.db, id) : findApplicationsOfGroup(this.db, id);
  }

  private async checkRoles(trx: Kysely<Database>, roles: GroupInput['roles']): Promise<void> {
    if (roles?.API) await assertGivableRole(trx, 'API', roles.API, 'roles.API');
    if (roles?.APPLICATION)
      await assertGivableRole(trx, 'APPLICATION', roles.APPLICATION, 'roles.APPLICATION');
  }

  private record(
    trx: Kysely<Database>,
    actorId: string,
    event: string,
    id: string,
    before: GroupRow | undefined,
    after: GroupRow | undefined,
  ) {
    return this.audit.record(trx, {
      referenceType: 'ENVIRONMENT',
      referenceId: ENVIRONMENT_ID,
      userId: actorId,
      event,
      properties: { GROUP: id },
      before,
      after,
    });
  }
}

function uniqueRules(rules: { event: GroupEvent }[] | undefined): { event: GroupEvent }[] {
  return [...new Set((rules ?? []).map((r) => r.event))].map((event) => ({ event }));
}
