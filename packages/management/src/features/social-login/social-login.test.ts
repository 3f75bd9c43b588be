import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertIdentityProvider } from '@portico/storage';
import { call, startTestApp, type TestApp } from '../../test-support/index.js';

const REDIRECT_URI = 'http://localhost:8084/login';

/** A real OpenID provider with its development login screen: any login/password signs in. */
async function startProvider() {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'portal',
        client_secret: 'portal-secret',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email'], profile: ['given_name', 'family_name'] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: `${sub}@example.test`,
        given_name: 'Ada',
        family_name: sub.toUpperCase(),
      }),
    }),
    pkce: { required: () => false },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Drives the authorization code flow like a browser (login and consent screens), returns the code. */
async function authorize(issuer: string, login: string, nonce: string, state = 'st-1'): Promise<string> {
  const cookies = new Map<string, string>();
  const jar = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      cookies.set(k!, v.join('='));
    }
  };
  const params = new URLSearchParams({
    client_id: 'portal',
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: REDIRECT_URI,
    state,
    nonce,
  });
  let url = `${issuer}/auth?${params}`;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, { method, body, redirect: 'manual', headers: { cookie: jar() } });
    keep(res);
    const location = res.headers.get('location');
    if (location?.startsWith(REDIRECT_URI)) {
      const code = new URL(location).searchParams.get('code');
      if (!code) throw new Error(`no code: ${location}`);
      return code;
    }
    if (location) {
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    // An interaction page: the login form, then the consent form.
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`unexpected page: ${html.slice(0, 300)}`);
    url = new URL(action, url).toString();
    method = 'POST';
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'anything' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('too many hops');
}

describe('sign-in with a social identity provider', () => {
  let t: TestApp;
  let op: Awaited<ReturnType<typeof startProvider>>;

  beforeAll(async () => {
    op = await startProvider();
    t = await startTestApp('sqlite');
    const now = Date.now();
    await insertIdentityProvider(t.db, {
      id: 'corp-oidc',
      type: 'oidc',
      name: 'Corporate',
      description: null,
      enabled: 1,
      email_required: 1,
      configuration: JSON.stringify({
        clientId: 'portal',
        clientSecret: 'portal-secret',
        authorizeEndpoint: `${op.issuer}/auth`,
        tokenEndpoint: `${op.issuer}/token`,
        userInfoEndpoint: `${op.issuer}/me`,
        scopes: ['openid', 'email', 'profile'],
      }),
      group_mappings: '[]',
      role_mappings: '[]',
      user_profile_mapping: '{}',
      created_at: now,
      updated_at: now,
    });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  it('lists the provider on the sign-in page with its authorization endpoint', async () => {
    const res = await call(t.app, undefined, { method: 'GET', url: '/portal/identities' });
    expect(res.json()).toEqual([
      expect.objectContaining({
        id: 'corp-oidc',
        type: 'oidc',
        clientId: 'portal',
        authorizationEndpoint: `${op.issuer}/auth`,
      }),
    ]);
    expect(JSON.stringify(res.json())).not.toContain('portal-secret');
  });

  it('exchanges the code, creates the user of the provider and opens a session; the next sign-in finds the same user', async () => {
    const code = await authorize(op.issuer, 'ada', 'nonce-1');
    const res = await call(t.app, undefined, {
      method: 'POST',
      url: '/auth/oauth2/corp-oidc',
      payload: { code, state: 'st-1', nonce: 'nonce-1', redirect_uri: REDIRECT_URI },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.cookies.find((c) => c.name === 'Auth-Portico')?.httpOnly).toBe(true);
    const token = res.json<{ token: string }>().token;
    const me = await call(t.app, undefined, {
      method: 'GET',
      url: '/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json()).toMatchObject({
      source: 'corp-oidc',
      username: 'ada',
      email: 'ada@example.test',
      firstname: 'Ada',
      lastname: 'ADA',
    });

    const again = await call(t.app, undefined, {
      method: 'POST',
      url: '/auth/oauth2/corp-oidc',
      payload: {
        code: await authorize(op.issuer, 'ada', 'nonce-2'),
        state: 'st-1',
        nonce: 'nonce-2',
        redirect_uri: REDIRECT_URI,
      },
    });
    const me2 = await call(t.app, undefined, {
      method: 'GET',
      url: '/user',
      headers: { authorization: `Bearer ${again.json<{ token: string }>().token}` },
    });
    expect(me2.json<{ id: string }>().id).toBe(me.json<{ id: string }>().id);
  });

  it('refuses a code whose ID token carries another nonce, and a code used twice', async () => {
    const code = await authorize(op.issuer, 'bob', 'the-real-nonce');
    const wrongNonce = await call(t.app, undefined, {
      method: 'POST',
      url: '/auth/oauth2/corp-oidc',
      payload: { code, state: 'st-1', nonce: 'another', redirect_uri: REDIRECT_URI },
    });
    expect(wrongNonce.statusCode).toBe(401);
    expect(wrongNonce.json<{ message: string }>().message).toMatch(/nonce/);
    const reused = await call(t.app, undefined, {
      method: 'POST',
      url: '/auth/oauth2/corp-oidc',
      payload: { code, state: 'st-1', nonce: 'the-real-nonce', redirect_uri: REDIRECT_URI },
    });
    expect(reused.statusCode).toBe(401);
  });

  it('answers 404 for an unknown provider and 400 for a missing code', async () => {
    expect(
      (
        await call(t.app, undefined, {
          method: 'POST',
          url: '/auth/oauth2/nope',
          payload: { code: 'c', state: 's', redirect_uri: REDIRECT_URI },
        })
      ).statusCode,
    ).toBe(404);
    const bad = await call(t.app, undefined, {
      method: 'POST',
      url: '/auth/oauth2/corp-oidc',
      payload: { state: 's', redirect_uri: REDIRECT_URI },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain("'code'");
  });
});
