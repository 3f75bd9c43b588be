import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupRow } from '@portico/storage';
import type { TestApp, TestSession } from '../../test-support/index.js';
import { call, createGroup, login, memoryLog, startTestApp } from '../../test-support/index.js';
import type { TestOidcServer } from '../../test-support/oidc.js';
import { OIDC_REDIRECT_URI, authorizeAt, startOidcServer } from '../../test-support/oidc.js';

/**
 * End to end: an identity provider created through the API, a real OpenID provider, and the mappings
 * (groups, roles, user profile) applied at each sign-in.
 */
describe('sign-in with group, role and user profile mappings', () => {
  let t: TestApp;
  let op: TestOidcServer;
  let admin: TestSession;
  let corpGroup: GroupRow;
  const log = memoryLog();

  beforeAll(async () => {
    op = await startOidcServer({
      claims: (login) => ({
        email: login === 'ada' ? 'ada@corp.test' : `${login}@elsewhere.test`,
        given_name: 'Ada',
        family_name: 'Lovelace',
        picture: `https://pictures.example.test/${login}.png`,
        groups: login === 'ada' ? ['platform-admins'] : [],
      }),
    });
    t = await startTestApp('sqlite', { logger: { level: 'warn', stream: log.stream } });
    admin = await login(t.app, 'admin', 'admin');
    corpGroup = await createGroup(t.db, 'Corp developers');
    const created = await call(t.app, admin, {
      method: 'POST',
      url: '/configuration/identities',
      payload: {
        type: 'oidc',
        name: 'Corp',
        configuration: {
          clientId: 'portal',
          clientSecret: 'portal-secret',
          authorizeEndpoint: `${op.issuer}/auth`,
          tokenEndpoint: `${op.issuer}/token`,
          userInfoEndpoint: `${op.issuer}/me`,
          scopes: ['openid', 'email', 'profile'],
        },
        groupMappings: [{ condition: "profile.email.endsWith('@corp.test')", groups: [corpGroup.id] }],
        roleMappings: [
          { condition: "'platform-admins' in profile.groups", portal: 'ADMIN', management: 'API_PUBLISHER' },
        ],
        userProfileMapping: {
          id: 'sub',
          email: 'email',
          firstname: 'given_name',
          lastname: 'family_name',
          picture: 'picture',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
  });

  let nonce = 0;
  async function signIn(
    loginName: string,
    providerId = 'corp',
  ): Promise<{ status: number; body: string; token?: string }> {
    const n = `nonce-${++nonce}`;
    const code = await authorizeAt(op.issuer, loginName, n);
    const res = await call(t.app, undefined, {
      method: 'POST',
      url: `/auth/oauth2/${providerId}`,
      payload: { code, state: 'st-1', nonce: n, redirect_uri: OIDC_REDIRECT_URI },
    });
    return { status: res.statusCode, body: res.body, token: res.json<{ token?: string }>().token };
  }
  const me = async (token: string) =>
    (
      await call(t.app, undefined, {
        method: 'GET',
        url: '/user',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json<Record<string, unknown>>();
  const memberships = (userId: string) =>
    t.db
      .selectFrom('memberships')
      .select(['reference_type', 'reference_id', 'role_scope', 'role_name', 'source'])
      .where('member_id', '=', userId)
      .orderBy('reference_type')
      .orderBy('role_scope')
      .execute();

  it('gives the mapped groups (with the default roles) and roles, and reads the profile through the mapping', async () => {
    const ada = await signIn('ada');
    expect(ada.status, ada.body).toBe(200);
    const user = await me(ada.token!);
    expect(user).toMatchObject({ email: 'ada@corp.test', firstname: 'Ada', lastname: 'Lovelace' });
    expect(await memberships(String(user.id))).toEqual([
      {
        reference_type: 'GROUP',
        reference_id: corpGroup.id,
        role_scope: 'API',
        role_name: 'USER',
        source: 'corp',
      },
      {
        reference_type: 'GROUP',
        reference_id: corpGroup.id,
        role_scope: 'APPLICATION',
        role_name: 'USER',
        source: 'corp',
      },
      {
        reference_type: 'MANAGEMENT',
        reference_id: 'DEFAULT',
        role_scope: 'MANAGEMENT',
        role_name: 'API_PUBLISHER',
        source: 'corp',
      },
      {
        reference_type: 'PORTAL',
        reference_id: 'DEFAULT',
        role_scope: 'PORTAL',
        role_name: 'ADMIN',
        source: 'corp',
      },
    ]);
    // The mapped portal role opens the identity provider settings to her.
    const settings = await call(t.app, undefined, {
      method: 'GET',
      url: '/configuration/identities',
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(settings.statusCode).toBe(200);
  });

  it('gives nothing to a user whose claims meet no condition', async () => {
    const bob = await signIn('bob');
    expect(bob.status, bob.body).toBe(200);
    expect(await memberships(String((await me(bob.token!)).id))).toEqual([]);
  });

  it('applies changed mappings at the next sign-in: what no mapping gives any more is taken back', async () => {
    const res = await call(t.app, admin, {
      method: 'PUT',
      url: '/configuration/identities/corp',
      payload: {
        name: 'Corp',
        groupMappings: [],
        roleMappings: [{ condition: "profile.email == 'ada@corp.test'", management: 'API_PUBLISHER' }],
        userProfileMapping: { id: 'sub', email: 'email', firstname: 'given_name', lastname: 'email' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ada = await signIn('ada');
    const user = await me(ada.token!);
    expect(user.lastname).toBe('ada@corp.test');
    expect((await memberships(String(user.id))).map((m) => `${m.role_scope}:${m.role_name}`)).toEqual([
      'MANAGEMENT:API_PUBLISHER',
    ]);
    const settings = await call(t.app, undefined, {
      method: 'GET',
      url: '/configuration/identities',
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(settings.statusCode).toBe(403);
  });

  it('turns the pending group invitations of the email into memberships at the first sign-in', async () => {
    const group = (
      await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/groups',
        payload: { name: 'Invited by mail', email_invitation: true },
      })
    ).json<{ id: string }>();
    const invited = await call(t.app, admin, {
      method: 'POST',
      url: `/configuration/groups/${group.id}/invitations`,
      payload: {
        email: 'carol@elsewhere.test',
        api_role: 'REVIEWER',
        reference_type: 'GROUP',
        reference_id: group.id,
      },
    });
    expect(invited.statusCode, invited.body).toBe(200);
    const carol = await signIn('carol');
    expect(carol.status, carol.body).toBe(200);
    const user = await me(carol.token!);
    expect(
      (await memberships(String(user.id))).map((m) => `${m.reference_id}:${m.role_scope}:${m.role_name}`),
    ).toContain(`${group.id}:API:REVIEWER`);
    const left = await call(t.app, admin, {
      method: 'GET',
      url: `/configuration/groups/${group.id}/invitations`,
    });
    expect(left.json()).toEqual([]);
  });

  it('tells the person signing in that the provider could not be reached, without its address; the log has it', async () => {
    const res = await call(t.app, admin, {
      method: 'POST',
      url: '/configuration/identities',
      payload: {
        type: 'oidc',
        name: 'Down',
        configuration: {
          clientId: 'portal',
          clientSecret: 'portal-secret',
          authorizeEndpoint: `${op.issuer}/auth`,
          tokenEndpoint: 'http://127.0.0.1:9/token',
          userInfoEndpoint: 'http://127.0.0.1:9/me',
        },
        userProfileMapping: { id: 'sub' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const down = await signIn('ada', 'down');
    expect(down.status).toBe(401);
    expect(JSON.parse(down.body)).toEqual({
      message:
        'Authentication with the identity provider failed: the identity provider could not be reached or refused the sign-in',
      http_status: 401,
    });
    expect(down.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|:9\b/);
    expect(log.text()).toMatch(/token endpoint unreachable/);
    expect(log.text()).toContain('127.0.0.1:9');
  });
});
