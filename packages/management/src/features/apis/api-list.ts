import type { ApiListFilter, ApiListOptions, Database, UserRow } from '@portico/storage';
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
): Promise<string> {
  let visibleTo: ApiListFilter['visibleTo'] = { userId: null, groupIds: [] };
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
    { manageable, pictureUrlPrefix },
  );
}
