import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http';
import { StorageKeys, readStored, removeStored, writeStored } from '../lib/storage';

/** A social identity provider of the sign-in page (`GET portal/identities`). */
export interface IdentityProvider {
  id: string;
  name: string;
  description?: string | null;
  /** google, github, oidc, or the access-management type. */
  type: string;
  clientId: string | null;
  authorizationEndpoint: string | null;
  userLogoutEndpoint: string | null;
  scopes: string[];
  color: string | null;
}

export const DEFAULT_PROVIDER_COLOR = '#34A0D4';
/** Length of the state and nonce of the authorization request. */
export const NONCE_LENGTH = 32;

const WELL_KNOWN_AUTHORIZE: Record<string, { url: string; scopes: string[] }> = {
  google: { url: 'https://accounts.google.com/o/oauth2/v2/auth', scopes: ['openid', 'email', 'profile'] },
  github: { url: 'https://github.com/login/oauth/authorize', scopes: ['user:email'] },
};

export const identityKeys = { portal: () => ['portal', 'identities'] as const };

export const identityProvidersQueryOptions = () =>
  queryOptions({
    queryKey: identityKeys.portal(),
    queryFn: ({ signal }) => http.get<IdentityProvider[]>('portal/identities', { signal, silent: true }),
    staleTime: 5 * 60_000,
  });

/** The enabled social providers; an empty list while loading, when the call fails or when not enabled. */
export function useIdentityProviders(enabled = true) {
  const query = useQuery({ ...identityProvidersQueryOptions(), enabled });
  return { providers: query.data ?? [], isPending: query.isPending };
}

/** The provider's authorization endpoint (google and github have well-known ones). */
export function authorizeEndpoint(provider: IdentityProvider): string | undefined {
  return provider.authorizationEndpoint ?? WELL_KNOWN_AUTHORIZE[provider.type.toLowerCase()]?.url;
}

/** A random string of URL-safe characters (state and nonce of the authorization request). */
export function randomToken(length = NONCE_LENGTH): string {
  // 64 characters: every byte maps to one without bias.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** Where the provider sends the user back: the login page, which exchanges the code. */
export const providerRedirectUri = (origin: string) => `${origin}/login`;

/** The authorization request of the provider's authorization-code flow (oidc is treated as oauth2). */
export function authorizationUrl(
  provider: IdentityProvider,
  params: { redirectUri: string; state: string; nonce: string },
): string | undefined {
  const endpoint = authorizeEndpoint(provider);
  if (!endpoint || !provider.clientId) return undefined;
  const scopes = provider.scopes.length
    ? provider.scopes
    : (WELL_KNOWN_AUTHORIZE[provider.type.toLowerCase()]?.scopes ?? ['openid', 'profile', 'email']);
  const url = new URL(endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', params.state);
  url.searchParams.set('nonce', params.nonce);
  return url.toString();
}

/** What is kept across the trip to the provider. */
export interface PendingProviderLogin {
  providerId: string;
  state: string;
  nonce: string;
  /** Where to go after the sign-in. */
  redirect?: string;
  logoutUrl?: string | null;
}

/** Sends the browser to the provider's sign-in page. */
export function startProviderLogin(provider: IdentityProvider, redirect: string | undefined): boolean {
  const state = randomToken();
  const nonce = randomToken();
  const url = authorizationUrl(provider, {
    redirectUri: providerRedirectUri(window.location.origin),
    state,
    nonce,
  });
  if (!url) return false;
  const pending: PendingProviderLogin = {
    providerId: provider.id,
    state,
    nonce,
    redirect,
    logoutUrl: provider.userLogoutEndpoint,
  };
  writeStored(StorageKeys.oauthState, pending);
  window.location.assign(url);
  return true;
}

/** The pending provider sign-in matching the `state` the provider sent back, if any (consumed). */
export function takePendingProviderLogin(state: string | null): PendingProviderLogin | undefined {
  const pending = readStored<PendingProviderLogin | undefined>(StorageKeys.oauthState, undefined);
  removeStored(StorageKeys.oauthState);
  return pending && state && pending.state === state ? pending : undefined;
}

/** POST auth/oauth2/{providerId}: exchanges the provider's code for a session (cookie). */
export async function exchangeProviderCode(
  pending: PendingProviderLogin,
  code: string,
  redirectUri: string,
): Promise<void> {
  await http.post(`auth/oauth2/${encodeURIComponent(pending.providerId)}`, {
    code,
    state: pending.state,
    nonce: pending.nonce,
    redirect_uri: redirectUri,
  });
  if (pending.logoutUrl) writeStored(StorageKeys.providerLogoutUrl, pending.logoutUrl);
}
