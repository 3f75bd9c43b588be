import type { GroupMapping, RoleMapping } from '@portico/model';
import type { Executor, NewMembershipRow } from '@portico/storage';
import {
  deleteMembershipById,
  findDefaultRole,
  findGroupsByIds,
  findRole,
  findUserMembershipsFromSource,
  upsertMembershipWithSource,
} from '@portico/storage';
import { newId } from '../../http/ids.js';
import { ENVIRONMENT_ID } from '../permissions/permissions.service.js';
import { compileProfileCondition } from './mappings.js';

interface Log {
  warn(obj: object, msg: string): void;
}

const matches = (condition: string, profile: Record<string, unknown>, log: Log) => {
  try {
    return compileProfileCondition(condition)(profile);
  } catch (error) {
    log.warn({ condition, err: error }, 'identity provider mapping: invalid condition skipped');
    return false;
  }
};

/** A group's default role of a scope: the group's own (when the groups feature keeps one), else the scope's. */
async function groupRole(
  db: Executor,
  group: Record<string, unknown>,
  scope: 'API' | 'APPLICATION',
): Promise<string | undefined> {
  if (typeof group.roles === 'string') {
    try {
      const own = (JSON.parse(group.roles) as Record<string, string | undefined>)[scope];
      if (own) return own;
    } catch {
      // an unreadable value: the scope's default
    }
  }
  return (await findDefaultRole(db, scope))?.name;
}

/**
 * Applies an identity provider's group and role mappings to a user at sign-in (as Gravitee 1.x did at
 * the first sign-in; here at each one): the memberships the provider gave before and that no mapping
 * gives now are removed, the others set, each marked with the provider as its source. Memberships given
 * by hand are left alone unless a mapping sets the same role scope. Unknown groups and roles are skipped.
 */
export async function applyMappings(
  db: Executor,
  input: {
    providerId: string;
    userId: string;
    profile: Record<string, unknown>;
    groupMappings: GroupMapping[];
    roleMappings: RoleMapping[];
    now: number;
    log: Log;
  },
): Promise<void> {
  const { providerId, userId, profile, now, log } = input;
  const wanted: NewMembershipRow[] = [];
  const row = (referenceType: string, referenceId: string, roleScope: string, roleName: string) =>
    wanted.push({
      id: newId(),
      member_id: userId,
      member_type: 'USER',
      reference_type: referenceType,
      reference_id: referenceId,
      role_scope: roleScope,
      role_name: roleName,
      source: providerId,
      created_at: now,
      updated_at: now,
    });

  const groupIds = new Set(
    input.groupMappings.filter((m) => matches(m.condition, profile, log)).flatMap((m) => m.groups),
  );
  const groups = await findGroupsByIds(db, [...groupIds]);
  for (const missing of [...groupIds].filter((id) => !groups.some((g) => g.id === id)))
    log.warn({ group: missing, provider: providerId }, 'identity provider mapping: unknown group skipped');
  for (const group of groups) {
    for (const scope of ['API', 'APPLICATION'] as const) {
      const role = await groupRole(db, group as unknown as Record<string, unknown>, scope);
      if (role) row('GROUP', group.id, scope, role);
    }
  }

  const roles = new Map<'MANAGEMENT' | 'PORTAL', string>();
  for (const mapping of input.roleMappings.filter((m) => matches(m.condition, profile, log))) {
    for (const [scope, name] of [
      ['PORTAL', mapping.portal],
      ['MANAGEMENT', mapping.management],
    ] as const) {
      if (!name) continue;
      if (await findRole(db, scope, name)) roles.set(scope, name);
      else
        log.warn(
          { scope, role: name, provider: providerId },
          'identity provider mapping: unknown role skipped',
        );
    }
  }
  for (const [scope, name] of roles) row(scope, ENVIRONMENT_ID, scope, name);

  const key = (m: { reference_type: string; reference_id: string; role_scope: string }) =>
    `${m.reference_type}:${m.reference_id}:${m.role_scope}`;
  const keep = new Set(wanted.map(key));
  for (const previous of await findUserMembershipsFromSource(db, userId, providerId))
    if (!keep.has(key(previous))) await deleteMembershipById(db, previous.id);
  for (const membership of wanted) await upsertMembershipWithSource(db, membership);
}
