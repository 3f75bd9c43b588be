import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertIdentityProvider } from '@portico/storage';
import { call, startTestApp, type TestApp } from '../../test-support/index.js';
import type { TestOidcServer } from '../../test-support/oidc.js';
import {
  OIDC_REDIRECT_URI as REDIRECT_URI,
  authorizeAt as authorize,
  startOidcServer,
} from '../../test-support/oidc.js';

describe('sign-in with a social identity provider', () => {
  let t: TestApp;
  let op: TestOidcServer;

  beforeAll(async () => {
    op = await startOidcServer();
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
