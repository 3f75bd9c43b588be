import type { AppConfig } from '../config/config';
import type { CurrentUser } from './permissions';
import { hasAnyPermission, isAdmin } from './permissions';
import { loginPath } from './redirects';

/** What a route asks of the visitor; routes carry it in their `handle`, children refine their parents. */
export interface RouteAccess {
  /** Which face draws the route (the contextual help button shows on console routes). */
  face?: 'portal' | 'console';
  /** Reachable without a session when forced login is on (login, registration, confirm, password reset). */
  public?: boolean;
  /** Signed-in users are sent to portal home (login, registration). */
  anonymousOnly?: boolean;
  /** Needs user creation enabled, otherwise login (registration, confirm). */
  userCreation?: boolean;
  /** Needs a signed-in user. */
  authenticated?: boolean;
  /** Each entry: one of these permissions is needed. */
  permissions?: string[][];
  /** Open to non-administrators in developer-portal-only mode. */
  devMode?: boolean;
  /** The top bar is hidden on this route while forced login is on. */
  hideTopBarWhenForcedLogin?: boolean;
  /** Page of the contextual documentation (`docs/{page}.md`). */
  docPage?: string;
}

/** Merges the handles of the matched routes, from the root to the leaf. */
export function mergeAccess(handles: readonly (RouteAccess | undefined)[]): RouteAccess {
  const merged: RouteAccess = {};
  for (const handle of handles) {
    if (!handle) continue;
    const { permissions, ...rest } = handle;
    Object.assign(merged, rest);
    if (permissions) merged.permissions = [...(merged.permissions ?? []), ...permissions];
  }
  return merged;
}

/** The route where the API list lives: authenticated users lacking a permission go there. */
export const API_LIST_PATH = '/management';

/**
 * The redirect the route guards apply, or null when the visitor may stay. `path` is the current path
 * with its query (for the redirect back after login). `signedInTarget` is where a signed-in user leaving
 * the login page goes: portal home, or the redirect of the sign-in that just succeeded (so that the
 * guard and the login page agree while the session arrives).
 */
export function accessRedirect(
  access: RouteAccess,
  user: CurrentUser | null,
  config: Pick<AppConfig, 'portal' | 'authentication'>,
  path: string,
  signedInTarget = '/',
): string | null {
  if (access.userCreation && !config.portal.userCreation.enabled) return '/login';
  if (access.anonymousOnly && user) return signedInTarget;
  if (!user && config.authentication.forceLogin.enabled && !access.public) return loginPath(path);
  if (!user && access.authenticated) return loginPath(path);
  for (const anyOf of access.permissions ?? []) {
    if (!hasAnyPermission(user, anyOf)) return user ? API_LIST_PATH : loginPath(path);
  }
  if (config.portal.devMode.enabled && !access.devMode && !isAdmin(user)) return user ? '/' : loginPath(path);
  return null;
}
