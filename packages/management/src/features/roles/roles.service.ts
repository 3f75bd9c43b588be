import type { PermissionMap, RoleScope } from '@portico/model';
import { DomainError, PERMISSIONS, RIGHTS, invalidField, notFound } from '@portico/model';
import type { Database, RoleRow } from '@portico/storage';
import {
  clearOtherDefaultRoles,
  deleteRole,
  findDefaultRole,
  findRole,
  findRolesByScope,
  insertRole,
  replaceRoleOfMemberships,
  updateRole,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { roleNameOf } from './roles.mapper.js';

/** The scopes whose roles an administrator defines (GROUP has only its system role). */
export const EDITABLE_SCOPES = ['MANAGEMENT', 'PORTAL', 'API', 'APPLICATION'] as const;

export interface RoleInput {
  description?: string | null | undefined;
  default?: boolean | undefined;
  permissions?: Record<string, string[]> | undefined;
}

export const roleNotFound = (scope: string, name: string) => notFound('Role', `${scope}:${name}`);
export const SYSTEM_ROLE_READ_ONLY = 'a system role can not be changed';
export const ROLE_NOT_DELETABLE = 'system and default roles can not be deleted';
export const DEFAULT_ROLE_NEEDED = 'each scope keeps one default role: make another role the default instead';

const key = (scope: string, name: string) => `${scope}:${name}`;

/** Roles of each scope: create, update (not system roles), delete (not system or default roles). */
export class RolesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  /** Known permissions of the scope only, rights in C, R, U, D order; permissions without rights left out. */
  private static permissionsOf(scope: RoleScope, given: Record<string, string[]> = {}): PermissionMap {
    const known = PERMISSIONS[scope] as readonly string[];
    const out: PermissionMap = {};
    for (const [name, rights] of Object.entries(given)) {
      if (!known.includes(name)) throw invalidField('permissions', `${name} is not a permission of ${scope}`);
      const kept = RIGHTS.filter((r) => rights.includes(r));
      if (kept.length > 0) out[name] = kept;
    }
    return out;
  }

  async create(actorId: string, scope: RoleScope, typedName: string, input: RoleInput): Promise<RoleRow> {
    if (!(EDITABLE_SCOPES as readonly string[]).includes(scope))
      throw invalidField('scope', `roles of ${scope} can not be created`);
    const name = roleNameOf(typedName);
    if (!name.replace(/_/g, '')) throw invalidField('name', 'a role name needs a letter or a digit');
    const permissions = RolesService.permissionsOf(scope, input.permissions);
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      if (await findRole(trx, scope, name))
        throw new DomainError(400, `Role [${key(scope, name)}] already exists`, 'ROLE_ALREADY_EXISTS', {
          field: 'name',
        });
      const row: RoleRow = {
        scope,
        name,
        description: input.description?.trim() || null,
        is_default: input.default ? 1 : 0,
        is_system: 0,
        permissions: JSON.stringify(permissions),
        created_at: now,
        updated_at: now,
      };
      await insertRole(trx, row);
      if (input.default) await this.takeDefault(trx, actorId, scope, name);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'ROLE_CREATED',
        properties: { ROLE: key(scope, name) },
        after: row,
      });
      return row;
    });
  }

  async update(actorId: string, scope: RoleScope, name: string, input: RoleInput): Promise<RoleRow> {
    const permissions = RolesService.permissionsOf(scope, input.permissions);
    return this.db.transaction().execute(async (trx) => {
      const before = await findRole(trx, scope, name);
      if (!before) throw roleNotFound(scope, name);
      if (before.is_system === 1)
        throw new DomainError(400, `Role [${key(scope, name)}]: ${SYSTEM_ROLE_READ_ONLY}`, 'ROLE_RESERVED');
      const makeDefault = input.default ?? before.is_default === 1;
      if (before.is_default === 1 && !makeDefault) throw invalidField('default', DEFAULT_ROLE_NEEDED);
      const after: RoleRow = {
        ...before,
        description: input.description === undefined ? before.description : input.description?.trim() || null,
        is_default: makeDefault ? 1 : 0,
        permissions: input.permissions === undefined ? before.permissions : JSON.stringify(permissions),
        updated_at: Math.max(this.now(), before.updated_at + 1),
      };
      const { scope: _s, name: _n, created_at: _c, ...changes } = after;
      await updateRole(trx, scope, name, changes);
      if (makeDefault && before.is_default !== 1) await this.takeDefault(trx, actorId, scope, name);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'ROLE_UPDATED',
        properties: { ROLE: key(scope, name) },
        before,
        after,
      });
      return after;
    });
  }

  /** Deletes a role; whoever held it gets the scope's default role. */
  async remove(actorId: string, scope: RoleScope, name: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const role = await findRole(trx, scope, name);
      if (!role) throw roleNotFound(scope, name);
      if (role.is_system === 1 || role.is_default === 1)
        throw new DomainError(
          400,
          `Role [${key(scope, name)}]: ${ROLE_NOT_DELETABLE}`,
          'ROLE_DELETION_FORBIDDEN',
        );
      const fallback = await findDefaultRole(trx, scope);
      if (!fallback) throw new DomainError(400, `No default role in ${scope}`, 'DEFAULT_ROLE_NOT_FOUND');
      await replaceRoleOfMemberships(trx, scope, name, fallback.name, this.now());
      await deleteRole(trx, scope, name);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'ROLE_DELETED',
        properties: { ROLE: key(scope, name) },
        before: role,
      });
    });
  }

  /** Makes the role the scope's one default role. */
  private async takeDefault(trx: Kysely<Database>, actorId: string, scope: string, name: string) {
    const previous = (await findRolesByScope(trx, scope)).filter(
      (r) => r.is_default === 1 && r.name !== name,
    );
    await clearOtherDefaultRoles(trx, scope, name);
    for (const role of previous) {
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'ROLE_UPDATED',
        properties: { ROLE: key(scope, role.name) },
        before: { default: true },
        after: { default: false },
      });
    }
  }
}
