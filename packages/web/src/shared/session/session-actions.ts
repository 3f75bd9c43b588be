import { basicAuthorization, errorCatalogue, http } from '../http';
import { queryClient } from '../lib/query-client';
import { signingOut } from '../lib/page-state';
import { StorageKeys, clearSessionData, readStored } from '../lib/storage';
import { fetchSession, userKeys } from './current-user';

/** Drops the signed-in user: the app behaves as signed out (session expiry, refresh failure). */
export function dropUser(): void {
  http.resetSession();
  queryClient.removeQueries({ queryKey: userKeys.all, predicate: (q) => q.queryKey[1] !== 'current' });
  queryClient.setQueryData(userKeys.current(), null);
}

/** Refreshes the current user after a session was opened (local or provider sign-in). */
export async function sessionOpened(): Promise<void> {
  errorCatalogue.resetSession();
  signingOut.set(false);
  // An earlier failed attempt's toast would still say the credentials were wrong.
  void import('../ui/toasts').then(({ hideSignInErrors }) => hideSignInErrors());
  await queryClient.fetchQuery({ queryKey: userKeys.current(), queryFn: () => fetchSession(), staleTime: 0 });
}

/** POST user/login with Basic credentials; the server sets the session cookie. */
export async function signIn(username: string, password: string): Promise<void> {
  await http.post('user/login', undefined, {
    headers: { Authorization: basicAuthorization(username, password) },
  });
  await sessionOpened();
}

/**
 * POST user/logout, then clears the stored data and the cached server state. Answers where to go: portal
 * home, then the identity provider's logout URL if one was stored at sign-in.
 */
export async function signOut(): Promise<{ providerLogoutUrl: string | undefined }> {
  const providerLogoutUrl = readStored<string | undefined>(StorageKeys.providerLogoutUrl, undefined);
  // The page being left makes way for portal home (see RootLayout) before the session ends.
  signingOut.set(true);
  // Calls under way would answer with the ending session (or 401 once it has ended) after the
  // sign-out and bring back a stale user: they are cancelled before and after the logout call.
  await queryClient.cancelQueries();
  // Calls that are not cancellable (or answer first) get 401 once the session has ended: no expiry.
  errorCatalogue.signedOut();
  // A failed logout call was already shown by the error catalogue; the local session ends anyway.
  await http.post('user/logout').catch(() => undefined);
  await queryClient.cancelQueries();
  clearSessionData();
  http.resetSession();
  // The current user's query stays (its observers, such as the top bar, hear the null); the rest goes.
  queryClient.removeQueries({
    predicate: (q) => !(q.queryKey[0] === userKeys.all[0] && q.queryKey[1] === 'current'),
  });
  queryClient.setQueryData(userKeys.current(), null);
  return { providerLogoutUrl: typeof providerLogoutUrl === 'string' ? providerLogoutUrl : undefined };
}
