import type { IdentityProviderRow } from '@portico/storage';

/** The endpoints and defaults of a social identity provider, by type. */
export interface ProviderEndpoints {
  authorizationEndpoint: string | null;
  tokenEndpoint: string | null;
  userInfoEndpoint: string | null;
  userLogoutEndpoint: string | null;
  scopes: string[];
}

/** The Portico access-management type (the vendor's own provider type in the spec). */
export const PORTICO_AM = 'portico-am';

const trim = (url: unknown) => (typeof url === 'string' ? url.replace(/\/+$/, '') : '');

/** Endpoints of a provider: fixed for google and github, from the configuration for oidc and portico-am. */
export function endpointsOf(row: IdentityProviderRow): ProviderEndpoints {
  const c = JSON.parse(row.configuration) as Record<string, unknown>;
  const scopes = Array.isArray(c.scopes) ? (c.scopes as string[]) : [];
  switch (row.type.toLowerCase().replace(/_/g, '-')) {
    case 'google':
      return {
        authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenEndpoint: 'https://oauth2.googleapis.com/token',
        userInfoEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
        userLogoutEndpoint: null,
        scopes: scopes.length ? scopes : ['openid', 'profile', 'email'],
      };
    case 'github':
      return {
        authorizationEndpoint: 'https://github.com/login/oauth/authorize',
        tokenEndpoint: 'https://github.com/login/oauth/access_token',
        userInfoEndpoint: 'https://api.github.com/user',
        userLogoutEndpoint: null,
        scopes: scopes.length ? scopes : ['user:email'],
      };
    case PORTICO_AM: {
      const base = `${trim(c.serverURL)}/${String(c.domain ?? '')}`;
      return {
        authorizationEndpoint: `${base}/oauth/authorize`,
        tokenEndpoint: `${base}/oauth/token`,
        userInfoEndpoint: `${base}/oidc/userinfo`,
        userLogoutEndpoint: `${base}/logout`,
        scopes: scopes.length ? scopes : ['openid', 'profile', 'email'],
      };
    }
    default:
      return {
        authorizationEndpoint: (c.authorizeEndpoint as string) ?? null,
        tokenEndpoint: (c.tokenEndpoint as string) ?? null,
        userInfoEndpoint: (c.userInfoEndpoint as string) ?? null,
        userLogoutEndpoint: (c.userLogoutEndpoint as string) ?? null,
        scopes: scopes.length ? scopes : ['openid', 'profile', 'email'],
      };
  }
}
