import type { Database, PageRow, UserRow } from '@portico/storage';
import {
  findApiById,
  findMembershipsOfMember,
  findUserMembershipsOn,
  isPubliclyVisible,
} from '@portico/storage';
import { notFound } from '@portico/model';
import type { Kysely } from 'kysely';
import type { PermissionService } from '../permissions/permissions.service.js';
import { excludedGroupsOf } from './pages.mapper.js';

/** Where pages live: the documentation of one API, or the portal's. */
export interface PageScope {
  referenceType: 'API' | 'ENVIRONMENT';
  /** `api` (api-documentation-u) or `portal` (portal-documentation-u). */
  permissionPrefix: 'api' | 'portal';
}
export const API_PAGES: PageScope = { referenceType: 'API', permissionPrefix: 'api' };
export const PORTAL_PAGES: PageScope = { referenceType: 'ENVIRONMENT', permissionPrefix: 'portal' };
/** The one environment whose portal documentation the portal pages are. */
export const PORTAL_REFERENCE = 'DEFAULT';

/** What one reader (signed in or not) may see of the pages of one reference. */
export interface PageReader {
  userId: string | undefined;
  isAdmin: boolean;
  /** Holds documentation-c, -u or -d: sees unpublished pages and the sources' configuration. */
  canManage: boolean;
  /** A direct member of the API: excluded groups do not apply (as Gravitee 1.x). */
  directMember: boolean;
  /** The groups the reader belongs to. */
  groups: Set<string>;
  /** For a private API: the API's groups (only those, not excluded, give access). */
  apiGroups: string[] | undefined;
}

const MANAGING = ['C', 'U', 'D'];

/**
 * The reader of the pages of a reference: anonymous readers see the published pages without excluded
 * groups of public APIs and of the portal; 404 for an unknown API; 403 for a private API the reader
 * may not read the documentation of.
 */
export async function pageReader(
  db: Kysely<Database>,
  permissions: PermissionService,
  scope: PageScope,
  referenceId: string,
  user: UserRow | undefined,
): Promise<PageReader | 'forbidden'> {
  let apiGroups: string[] | undefined;
  let isPublic = true;
  if (scope.referenceType === 'API') {
    const api = await findApiById(db, referenceId);
    if (!api) throw notFound('Api', referenceId);
    isPublic = isPubliclyVisible(api);
    if (!isPublic) apiGroups = JSON.parse(api.groups) as string[];
  }
  if (!user) {
    if (!isPublic) return 'forbidden';
    return {
      userId: undefined,
      isAdmin: false,
      canManage: false,
      directMember: false,
      groups: new Set(),
      apiGroups,
    };
  }
  const access = await permissions.access(user.id);
  let rights: readonly string[];
  let directMember = false;
  if (scope.referenceType === 'API') {
    const map = await permissions.referencePermissions(user.id, 'API', referenceId);
    rights = map.DOCUMENTATION ?? [];
    directMember = (await findUserMembershipsOn(db, user.id, 'API', [referenceId])).length > 0;
  } else {
    rights = access.roles.find((r) => r.scope === 'PORTAL')?.permissions.DOCUMENTATION ?? [];
  }
  const canManage = access.isAdmin || rights.some((r) => MANAGING.includes(r));
  if (!isPublic && !canManage && !rights.includes('R')) return 'forbidden';
  const groups = new Set(
    (await findMembershipsOfMember(db, 'USER', user.id))
      .filter((m) => m.reference_type === 'GROUP')
      .map((m) => m.reference_id),
  );
  return { userId: user.id, isAdmin: access.isAdmin, canManage, directMember, groups, apiGroups };
}

/**
 * Whether the reader sees a page: unpublished pages only for those who manage the documentation; a
 * page with excluded groups is hidden from anonymous readers and from the members of those groups
 * (a private API's page: from readers who are in none of the API's other groups).
 */
export function isVisible(reader: PageReader, page: PageRow): boolean {
  if (reader.isAdmin) return true;
  if (page.published !== 1 && !reader.canManage) return false;
  const excluded = excludedGroupsOf(page);
  if (excluded.length === 0) return true;
  if (!reader.userId) return false;
  if (reader.directMember) return true;
  if (reader.apiGroups) return reader.apiGroups.some((g) => !excluded.includes(g) && reader.groups.has(g));
  return !excluded.some((g) => reader.groups.has(g));
}
