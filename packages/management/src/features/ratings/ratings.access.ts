import type { PermissionMap, Right } from '@portico/model';
import { forbidden, notFound, unauthenticated } from '@portico/model';
import type { ApiRow, Executor } from '@portico/storage';
import { findApiById, findDefaultRole } from '@portico/storage';
import type { PermissionService } from '../permissions/permissions.service.js';

/** What a caller may do with the ratings of one API. */
export interface RatingAccess {
  api: ApiRow;
  userId: string | null;
  /** RATING and RATING_ANSWER rights of the caller. */
  rights: { RATING: Right[]; RATING_ANSWER: Right[] };
}

const RATING_KEYS = ['RATING', 'RATING_ANSWER'] as const;

function ratingRights(map: PermissionMap): RatingAccess['rights'] {
  return { RATING: map.RATING ?? [], RATING_ANSWER: map.RATING_ANSWER ?? [] };
}

/**
 * The caller's rights on an API's ratings: those of their roles on the API (directly or through its
 * groups). On a PUBLIC API, a signed-in user who holds no role there rates as a holder of the default
 * API role (USER: "reads the API and rates it"), so any developer of the portal may rate what they
 * see; only the rating permissions of that role apply, nothing else of the API opens. Anonymous
 * callers hold no right. 404 for an unknown API.
 */
export async function ratingAccess(
  db: Executor,
  permissions: PermissionService,
  apiId: string,
  userId: string | null,
): Promise<RatingAccess> {
  const api = await findApiById(db, apiId);
  if (!api) throw notFound('Api', apiId);
  if (!userId) return { api, userId, rights: { RATING: [], RATING_ANSWER: [] } };
  const own = await permissions.referencePermissions(userId, 'API', apiId);
  if (Object.keys(own).length > 0 || api.visibility !== 'PUBLIC')
    return { api, userId, rights: ratingRights(own) };
  const role = await findDefaultRole(db, 'API');
  const defaults = role ? (JSON.parse(role.permissions) as PermissionMap) : {};
  return {
    api,
    userId,
    rights: ratingRights(Object.fromEntries(RATING_KEYS.map((k) => [k, defaults[k] ?? []]))),
  };
}

export const holds = (access: RatingAccess, key: 'RATING' | 'RATING_ANSWER', right: Right): boolean =>
  access.rights[key].includes(right);

/** Fails unless the caller holds the right: 401 anonymous, 403 otherwise (named `api-rating-c`...). */
export function demand(access: RatingAccess, key: 'RATING' | 'RATING_ANSWER', right: Right): string {
  if (!access.userId) throw unauthenticated();
  if (!holds(access, key, right)) throw forbidden(`api-${key.toLowerCase()}-${right.toLowerCase()}`);
  return access.userId;
}

/** Reading ratings and their summary: anybody on a PUBLIC API, else holders of api-rating-r. */
export function demandRead(access: RatingAccess): void {
  if (access.api.visibility === 'PUBLIC' || holds(access, 'RATING', 'R')) return;
  demand(access, 'RATING', 'R');
}
