import type { GroupRow, InvitationRow, MembershipRow, UserRow } from '@portico/storage';
import { displayName } from '../users/users.mapper.js';

export const GROUP_EVENTS = ['API_CREATE', 'APPLICATION_CREATE'] as const;
export type GroupEvent = (typeof GROUP_EVENTS)[number];

/** A group on the wire (console-applications-and-settings.md 3), snake_case as Gravitee 1.x. */
export interface GroupJson {
  id: string;
  name: string;
  /** Default roles of the members: `{ API: 'USER', APPLICATION: 'OWNER' }` (only those set). */
  roles: Record<string, string>;
  event_rules: { event: GroupEvent }[];
  max_invitation: number | null;
  lock_api_role: boolean;
  lock_application_role: boolean;
  system_invitation: boolean;
  email_invitation: boolean;
  /** Whether the caller may change the group (management-group-u, or an ADMIN of the group). */
  manageable: boolean;
  created_at: number;
  updated_at: number;
}

export function eventRulesOf(row: GroupRow): { event: GroupEvent }[] {
  return JSON.parse(row.event_rules) as { event: GroupEvent }[];
}

export function toGroupJson(row: GroupRow, manageable: boolean): GroupJson {
  const roles: Record<string, string> = {};
  if (row.api_role) roles.API = row.api_role;
  if (row.application_role) roles.APPLICATION = row.application_role;
  return {
    id: row.id,
    name: row.name,
    roles,
    event_rules: eventRulesOf(row),
    max_invitation: row.max_invitation,
    lock_api_role: row.lock_api_role === 1,
    lock_application_role: row.lock_application_role === 1,
    system_invitation: row.system_invitation === 1,
    email_invitation: row.email_invitation === 1,
    manageable,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toInvitationJson(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    api_role: row.api_role,
    application_role: row.application_role,
    reference_type: row.reference_type,
    reference_id: row.reference_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A group member: one user with its roles in the group (GROUP: ADMIN or none, API, APPLICATION). */
export function toGroupMemberJson(user: UserRow, memberships: MembershipRow[]) {
  const roles: Record<string, string> = {};
  for (const m of memberships) roles[m.role_scope] = m.role_name;
  return {
    id: user.id,
    reference: user.id,
    username: user.source_id,
    displayName: displayName(user),
    email: user.email,
    roles,
    created_at: Math.min(...memberships.map((m) => m.created_at)),
  };
}
