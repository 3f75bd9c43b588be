import { StorageKeys, readStored, removeStored, writeStored } from '../lib/storage';

/** Routes never returned to after a sign-in: login, logout and the registration confirmation. */
export function isReturnableRoute(path: string): boolean {
  const pathname = path.split(/[?#]/)[0] ?? '';
  return !(pathname === '/login' || pathname === '/logout' || pathname.startsWith('/registration/confirm'));
}

/** A path of this app (an absolute URL or `//host` would make the sign-in an open redirect). */
export function isAppPath(path: string | null | undefined): path is string {
  return !!path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

/** Remembers where the user was when sent to login (top bar button, guards). */
export function recordLastRoute(path: string): void {
  if (isAppPath(path) && isReturnableRoute(path)) writeStored(StorageKeys.lastRoute, path);
}

export function readLastRoute(): string | undefined {
  const path = readStored<unknown>(StorageKeys.lastRoute, undefined);
  return typeof path === 'string' ? path : undefined;
}

/**
 * Where a successful sign-in goes: the redirect URI if there is one, else the last route (unless it
 * was login, logout or confirm), else portal home.
 */
export function loginTarget(redirectUri: string | null | undefined, lastRoute: string | undefined): string {
  if (isAppPath(redirectUri)) return redirectUri;
  if (isAppPath(lastRoute) && isReturnableRoute(lastRoute)) return lastRoute;
  return '/';
}

/** The login page for a path: `/login?redirectUri=...` (plain `/login` from portal home). */
export function loginPath(path?: string): string {
  return path && path !== '/' && isAppPath(path) && isReturnableRoute(path)
    ? `/login?redirectUri=${encodeURIComponent(path)}`
    : '/login';
}

/** The last route served its purpose (the sign-in went there). */
export function forgetLastRoute(): void {
  removeStored(StorageKeys.lastRoute);
}
