import type { ApiListOptions, ApiRow, ApiViewer, Database, UserRow } from '@portico/storage';
import { isPubliclyVisible } from '@portico/storage';
import { findApiListJson, findMembershipsOfMember } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { ApiListQuery } from './apis.types.js';

/**
 * The APIs a caller may see, as a JSON array text, each with `manageable`: administrators see and
 * manage all; others see PUBLIC APIs and those they are members of (directly or through a group)
 * and manage the latter; anonymous callers see PUBLIC APIs.
 */
export async function listApisJson(
  deps: { db: Kysely<Database>; permissions: PermissionService },
  actor: UserRow | undefined,
  query: ApiListQuery,
  pictureUrlPrefix: string,
  ratings = false,
): Promise<string> {
  let visibleTo: ApiViewer | undefined = { userId: null, groupIds: [] };
  let manageable: ApiListOptions['manageable'] = 'none';
  if (actor) {
    const [access, memberships] = await Promise.all([
      deps.permissions.access(actor.id),
      findMembershipsOfMember(deps.db, 'USER', actor.id),
    ]);
    const groups = memberships.filter((m) => m.reference_type === 'GROUP');
    const managingGroups = [
      ...new Set(groups.filter((m) => m.role_scope === 'API').map((m) => m.reference_id)),
    ];
    visibleTo = access.isAdmin
      ? undefined
      : { userId: actor.id, groupIds: [...new Set(groups.map((m) => m.reference_id))] };
    manageable = access.isAdmin ? 'all' : { userId: actor.id, groupIds: managingGroups };
  }
  return findApiListJson(
    deps.db,
    {
      visibleTo,
      view: query.view && query.view !== 'all' ? query.view : undefined,
      group: query.group,
      top: query.top,
      text: query.text,
      order: query.order,
    },
    { manageable, pictureUrlPrefix, ratings },
  );
}

/** Who the actor is as a catalogue viewer; undefined for an administrator, who sees every API. */
export async function apiViewerOf(
  deps: { db: Kysely<Database>; permissions: PermissionService },
  actor: UserRow | undefined,
): Promise<ApiViewer | undefined> {
  if (!actor) return { userId: null, groupIds: [] };
  const [access, memberships] = await Promise.all([
    deps.permissions.access(actor.id),
    findMembershipsOfMember(deps.db, 'USER', actor.id),
  ]);
  if (access.isAdmin) return undefined;
  const groupIds = memberships.filter((m) => m.reference_type === 'GROUP').map((m) => m.reference_id);
  return { userId: actor.id, groupIds: [...new Set(groupIds)] };
}

/**
 * Whether the actor may see the API in the portal (the rule of the lists, for direct links): a
 * published PUBLIC API, or one the actor is a member of, directly or through one of its groups.
 */
export async function mayViewApi(
  deps: { db: Kysely<Database>; permissions: PermissionService },
  actor: UserRow | undefined,
  api: ApiRow,
): Promise<boolean> {
  if (isPubliclyVisible(api)) return true;
  if (!actor) return false;
  const memberships = await findMembershipsOfMember(deps.db, 'USER', actor.id);
  const apiGroups = new Set(JSON.parse(api.groups) as string[]);
  return memberships.some(
    (m) =>
      (m.reference_type === 'API' && m.reference_id === api.id) ||
      (m.reference_type === 'GROUP' && apiGroups.has(m.reference_id)),
  );
}
