import { describe, expect, it } from 'vitest';
import type { IdentityProvider } from './identity-providers';
import { NONCE_LENGTH, authorizationUrl, providerRedirectUri, randomToken } from './identity-providers';

const provider = (over: Partial<IdentityProvider> = {}): IdentityProvider => ({
  id: 'corp',
  name: 'Corp SSO',
  type: 'oidc',
  clientId: 'portico',
  authorizationEndpoint: 'https://sso.example/authorize?audience=api',
  userLogoutEndpoint: 'https://sso.example/logout',
  scopes: ['openid', 'email'],
  color: null,
  ...over,
});

describe('social sign-in', () => {
  it('asks the provider for an authorization code with state and nonce, coming back to the login page', () => {
    const url = new URL(
      authorizationUrl(provider(), {
        redirectUri: providerRedirectUri('http://localhost:8084'),
        state: 's',
        nonce: 'n',
      })!,
    );
    expect(url.origin + url.pathname).toBe('https://sso.example/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      audience: 'api',
      response_type: 'code',
      client_id: 'portico',
      redirect_uri: 'http://localhost:8084/login',
      scope: 'openid email',
      state: 's',
      nonce: 'n',
    });
  });

  it('knows the endpoints of google and github', () => {
    const google = authorizationUrl(provider({ type: 'google', authorizationEndpoint: null, scopes: [] }), {
      redirectUri: 'r',
      state: 's',
      nonce: 'n',
    });
    expect(google).toMatch(/^https:\/\/accounts\.google\.com\/o\/oauth2\/v2\/auth\?/);
    expect(new URL(google!).searchParams.get('scope')).toBe('openid email profile');
  });

  it('can not start without an endpoint or a client id', () => {
    expect(
      authorizationUrl(provider({ authorizationEndpoint: null }), {
        redirectUri: 'r',
        state: 's',
        nonce: 'n',
      }),
    ).toBeUndefined();
    expect(
      authorizationUrl(provider({ clientId: null }), { redirectUri: 'r', state: 's', nonce: 'n' }),
    ).toBeUndefined();
  });

  it('uses a random state and nonce of 32 URL-safe characters', () => {
    const a = randomToken();
    expect(NONCE_LENGTH).toBe(32);
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(randomToken()).not.toBe(a);
  });
});
