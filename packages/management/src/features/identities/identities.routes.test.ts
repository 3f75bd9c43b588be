import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_PROVIDER_MESSAGES } from '@portico/model';
import { findAllIdentityProviders, insertRole } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import {
  FIXTURE_TIME,
  call,
  errorBody,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

const oidc = {
  type: 'oidc',
  name: 'Corporate SSO',
  description: 'Our OpenID provider',
  configuration: {
    clientId: 'portal',
    clientSecret: 'top-secret',
    tokenEndpoint: 'https://sso.example.test/token',
    authorizeEndpoint: 'https://sso.example.test/authorize',
    userInfoEndpoint: 'https://sso.example.test/userinfo',
    scopes: ['openid', 'email'],
  },
  userProfileMapping: { id: 'sub', email: 'email' },
};

for (const dialect of await testDialects()) {
  describe(`${dialect}: configuration/identities`, () => {
    let t: TestApp;
    let admin: TestSession;
    /** Holds portal-identity_provider-r only. */
    let reader: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      await insertRole(t.db, {
        scope: 'PORTAL',
        name: 'IDP_READER',
        description: null,
        is_default: 0,
        is_system: 0,
        permissions: JSON.stringify({ IDENTITY_PROVIDER: ['R'] }),
        created_at: FIXTURE_TIME,
        updated_at: FIXTURE_TIME,
      });
      reader = (await signInNewUser(t.app, t.db, { portal: 'IDP_READER' })).session;
    });
    afterAll(() => t?.close());

    const stored = async () => (await findAllIdentityProviders(t.db)).map((p) => p.name).sort();

    it('creates a provider with the defaults (enabled, email required) and reads it back with the secret', async () => {
      const res = await call(t.app, admin, {
        method: 'POST',
        url: '/configuration/identities',
        payload: oidc,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        id: 'corporate-sso',
        type: 'oidc',
        enabled: true,
        emailRequired: true,
        configuration: { clientSecret: 'top-secret', scopes: ['openid', 'email'] },
        groupMappings: [],
        roleMappings: [],
        userProfileMapping: { id: 'sub', email: 'email', firstname: 'given_name' },
      });
      const list = await call(t.app, admin, { method: 'GET', url: '/configuration/identities' });
      expect(list.json()).toEqual([
        expect.objectContaining({ id: 'corporate-sso', name: 'Corporate SSO', enabled: true }),
      ]);
      expect(JSON.stringify(list.json())).not.toContain('top-secret');
      const audits = await t.db
        .selectFrom('audits')
        .selectAll()
        .where('event', '=', 'IDENTITY_PROVIDER_CREATED')
        .execute();
      expect(audits).toHaveLength(1);
      expect(JSON.stringify(audits)).not.toContain('top-secret');
    });

    it('hides the client secret from readers who may not change the provider, and from the sign-in page', async () => {
      const res = await call(t.app, reader, {
        method: 'GET',
        url: '/configuration/identities/corporate-sso',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().configuration.clientId).toBe('portal');
      expect(JSON.stringify(res.json())).not.toContain('top-secret');
      const pub = await call(t.app, undefined, { method: 'GET', url: '/portal/identities' });
      expect(pub.json()).toEqual([expect.objectContaining({ id: 'corporate-sso', clientId: 'portal' })]);
      expect(JSON.stringify(pub.json())).not.toContain('top-secret');
    });

    it('updates name, mappings and profile mapping; an absent secret is kept; a disabled provider leaves the sign-in page', async () => {
      const res = await call(t.app, admin, {
        method: 'PUT',
        url: '/configuration/identities/corporate-sso',
        payload: {
          name: 'Corporate',
          enabled: false,
          configuration: { ...oidc.configuration, clientSecret: undefined },
          groupMappings: [{ condition: "profile.email.endsWith('@corp.test')", groups: ['g1'] }],
          roleMappings: [{ condition: 'true', portal: 'USER', management: 'API_PUBLISHER' }],
          userProfileMapping: { id: 'sub', email: 'mail', picture: 'avatar' },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        name: 'Corporate',
        enabled: false,
        configuration: { clientSecret: 'top-secret' },
        groupMappings: [{ groups: ['g1'] }],
        roleMappings: [{ portal: 'USER', management: 'API_PUBLISHER' }],
        userProfileMapping: { email: 'mail', picture: 'avatar' },
      });
      expect((await call(t.app, undefined, { method: 'GET', url: '/portal/identities' })).json()).toEqual([]);
    });

    describe('refuses bad input with 400 naming the field, storing nothing', () => {
      const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
        ['no name', { ...oidc, name: '' }, 'name', IDENTITY_PROVIDER_MESSAGES.nameRequired],
        ['a long name', { ...oidc, name: 'n'.repeat(51) }, 'name', IDENTITY_PROVIDER_MESSAGES.nameTooLong],
        ['an unknown type', { ...oidc, type: 'ldap' }, 'type', /./],
        [
          'no client secret',
          { ...oidc, configuration: { ...oidc.configuration, clientSecret: '' } },
          'configuration.clientSecret',
          'is required',
        ],
        [
          'an oidc token endpoint that is not a URL',
          { ...oidc, configuration: { ...oidc.configuration, tokenEndpoint: 'token' } },
          'configuration.tokenEndpoint',
          'must be an http or https URL',
        ],
        [
          'an oidc provider without a profile id mapping',
          { ...oidc, userProfileMapping: { email: 'email' } },
          'userProfileMapping.id',
          'is required',
        ],
        [
          'a Portico access-management provider without a domain',
          {
            type: 'portico-am',
            name: 'AM',
            configuration: { clientId: 'c', clientSecret: 's', serverURL: 'https://am.example.test' },
            userProfileMapping: { id: 'sub' },
          },
          'configuration.domain',
          'is required',
        ],
        [
          'a group mapping without groups',
          { ...oidc, groupMappings: [{ condition: 'true', groups: [] }] },
          'groupMappings.0.groups',
          IDENTITY_PROVIDER_MESSAGES.groupsRequired,
        ],
        [
          'a role mapping without a condition',
          { ...oidc, roleMappings: [{ condition: '', portal: 'USER' }] },
          'roleMappings.0.condition',
          IDENTITY_PROVIDER_MESSAGES.conditionRequired,
        ],
        [
          'a condition that is not an expression',
          { ...oidc, groupMappings: [{ condition: 'profile.email ===', groups: ['g'] }] },
          'groupMappings.0.condition',
          /not a valid expression/,
        ],
      ];
      for (const [what, payload, field, reason] of cases) {
        it(what, async () => {
          const before = await stored();
          const res = await call(t.app, admin, {
            method: 'POST',
            url: '/configuration/identities',
            payload: { ...payload, name: payload.name === oidc.name ? `${what}`.slice(0, 40) : payload.name },
          });
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody(field, reason));
          expect(await stored()).toEqual(before);
        });
      }

      it('a google provider needs only client id and secret; the same name twice is refused', async () => {
        const google = {
          type: 'GOOGLE',
          name: 'Google',
          configuration: { clientId: 'g', clientSecret: 's' },
        };
        expect(
          (await call(t.app, admin, { method: 'POST', url: '/configuration/identities', payload: google }))
            .statusCode,
        ).toBe(201);
        const again = await call(t.app, admin, {
          method: 'POST',
          url: '/configuration/identities',
          payload: google,
        });
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual(invalidFieldBody('name', /already exists/));
      });
    });

    describe('permissions', () => {
      it('is refused (403) without portal-identity_provider-r, -c, -u and -d', async () => {
        const plain = (await signInNewUser(t.app, t.db)).session;
        const calls = [
          [plain, 'GET', '/configuration/identities', undefined, 'portal-identity_provider-r'],
          [plain, 'GET', '/configuration/identities/corporate-sso', undefined, 'portal-identity_provider-r'],
          [reader, 'POST', '/configuration/identities', oidc, 'portal-identity_provider-c'],
          [
            reader,
            'PUT',
            '/configuration/identities/corporate-sso',
            { name: 'X' },
            'portal-identity_provider-u',
          ],
          [
            reader,
            'DELETE',
            '/configuration/identities/corporate-sso',
            undefined,
            'portal-identity_provider-d',
          ],
        ] as const;
        for (const [session, method, url, payload, permission] of calls) {
          const res = await call(t.app, session, { method, url, ...(payload ? { payload } : {}) });
          expect(res.statusCode, `${method} ${url}`).toBe(403);
          expect(res.json()).toEqual(errorBody(403, `You do not have the permission ${permission}`));
        }
        expect(await stored()).toContain('Corporate');
      });

      it('deletes a provider (portal-identity_provider-d), then answers 404', async () => {
        const res = await call(t.app, admin, {
          method: 'DELETE',
          url: '/configuration/identities/corporate-sso',
        });
        expect(res.statusCode).toBe(204);
        expect(await stored()).not.toContain('Corporate');
        const again = await call(t.app, admin, {
          method: 'GET',
          url: '/configuration/identities/corporate-sso',
        });
        expect(again.statusCode).toBe(404);
      });
    });
  });
}
