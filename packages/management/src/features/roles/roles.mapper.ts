import type { PermissionMap } from '@portico/model';
import type { RoleRow, UserRow } from '@portico/storage';
import { displayName } from '../users/users.mapper.js';

export interface RoleJson {
  name: string;
  scope: string;
  description: string | null;
  default: boolean;
  system: boolean;
  permissions: PermissionMap;
}

export function toRoleJson(row: RoleRow): RoleJson {
  return {
    name: row.name,
    scope: row.scope,
    description: row.description,
    default: row.is_default === 1,
    system: row.is_system === 1,
    permissions: JSON.parse(row.permissions) as PermissionMap,
  };
}

/** A holder of a MANAGEMENT or PORTAL role, as the role members screen lists them. */
export interface RoleMemberJson {
  id: string;
  reference: string;
  displayName: string;
  username: string;
}

export const toRoleMemberJson = (user: UserRow): RoleMemberJson => ({
  id: user.id,
  reference: user.id,
  displayName: displayName(user),
  username: user.source_id,
});

/** Role name as Gravitee 1.x makes it from what was typed: `api reader!` gives `API_READER_`. */
export const roleNameOf = (typed: string): string =>
  typed.trim().toUpperCase().replace(/\s+/g, '_').replace(/\W/g, '_');
