import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_REGISTRATION_MESSAGES } from '@portico/model';
import { findClientRegistrationProviders, insertRole } from '@portico/storage';
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
import type { TestOidcServer } from '../../test-support/oidc.js';
import { OIDC_REDIRECT_URI, startOidcServer } from '../../test-support/oidc.js';
import { PROVIDER_UNUSABLE } from './dcr-client.js';

const BASE = '/configuration/applications/registration/providers';
const ALLOW_LOCAL = { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] } };

/**
 * A real OpenID provider with dynamic client registration (RFC 7591) and its management (RFC 7592).
 * Registration needs an access token that the `registrar` client obtained with its client credentials.
 */
async function startRegistrationServer(): Promise<TestOidcServer> {
  return startOidcServer({
    configuration: {
      clients: [
        {
          client_id: 'portal',
          client_secret: 'portal-secret',
          redirect_uris: [OIDC_REDIRECT_URI],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
        {
          client_id: 'registrar',
          client_secret: 'registrar-secret',
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        },
      ],
      features: {
        clientCredentials: { enabled: true },
        registration: { enabled: true },
        registrationManagement: { enabled: true },
      },
    },
    gate: async (req, res, provider) => {
      if (req.method !== 'POST' || !req.url?.startsWith('/reg')) return false;
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const granted = token ? await provider.ClientCredentials.find(token) : undefined;
      if (granted?.clientId === 'registrar') return false;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
      return true;
    },
  });
}

let op: TestOidcServer;
beforeAll(async () => {
  op = await startRegistrationServer();
});
afterAll(() => op?.close());

const providerBody = () => ({
  name: 'Corporate OP',
  description: 'Registers our OAuth applications',
  discovery_endpoint: `${op.issuer}/.well-known/openid-configuration`,
  client_id: 'registrar',
  client_secret: 'registrar-secret',
  scopes: [],
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: client registration providers`, () => {
    let t: TestApp;
    let admin: TestSession;
    let reader: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: ALLOW_LOCAL });
      admin = await login(t.app, 'admin', 'admin');
      await insertRole(t.db, {
        scope: 'PORTAL',
        name: 'CRP_READER',
        description: null,
        is_default: 0,
        is_system: 0,
        permissions: JSON.stringify({ CLIENT_REGISTRATION_PROVIDER: ['R'] }),
        created_at: FIXTURE_TIME,
        updated_at: FIXTURE_TIME,
      });
      reader = (await signInNewUser(t.app, t.db, { portal: 'CRP_READER' })).session;
    });
    afterAll(() => t?.close());

    const stored = async () => (await findClientRegistrationProviders(t.db)).map((p) => p.name);

    describe('refuses bad input with 400 naming the field, storing nothing', () => {
      const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
        ['no name', { name: '' }, 'name', CLIENT_REGISTRATION_MESSAGES.nameRequired],
        ['a name of 2 characters', { name: 'ab' }, 'name', CLIENT_REGISTRATION_MESSAGES.nameTooShort],
        [
          'a name of 51 characters',
          { name: 'n'.repeat(51) },
          'name',
          CLIENT_REGISTRATION_MESSAGES.nameTooLong,
        ],
        ['no discovery endpoint', { discovery_endpoint: '' }, 'discovery_endpoint', /required/],
        [
          'a discovery endpoint that is not a URL',
          { discovery_endpoint: 'openid-configuration' },
          'discovery_endpoint',
          CLIENT_REGISTRATION_MESSAGES.discoveryNotUrl,
        ],
        ['no client id', { client_id: ' ' }, 'client_id', CLIENT_REGISTRATION_MESSAGES.clientIdRequired],
        [
          'no client secret',
          { client_secret: '' },
          'client_secret',
          CLIENT_REGISTRATION_MESSAGES.clientSecretRequired,
        ],
      ];
      for (const [what, change, field, reason] of cases) {
        it(what, async () => {
          const res = await call(t.app, admin, {
            method: 'POST',
            url: BASE,
            payload: { ...providerBody(), ...change },
          });
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json()).toEqual(invalidFieldBody(field, reason));
          expect(await stored()).toEqual([]);
        });
      }

      it('client credentials that the provider refuses (one message, no detail)', async () => {
        const res = await call(t.app, admin, {
          method: 'POST',
          url: BASE,
          payload: { ...providerBody(), client_secret: 'wrong' },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, PROVIDER_UNUSABLE));
        expect(await stored()).toEqual([]);
      });
    });

    it('creates the provider once its discovery answers and its credentials get a token; one provider only', async () => {
      const res = await call(t.app, admin, { method: 'POST', url: BASE, payload: providerBody() });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        name: 'Corporate OP',
        client_id: 'registrar',
        client_secret: 'registrar-secret',
        scopes: [],
      });
      const second = await call(t.app, admin, {
        method: 'POST',
        url: BASE,
        payload: { ...providerBody(), name: 'Other' },
      });
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual(invalidFieldBody('name', /Only one client registration provider/));
      expect(await stored()).toEqual(['Corporate OP']);
    });

    it('answers the client secret only to who may change the provider', async () => {
      const all = await call(t.app, reader, { method: 'GET', url: BASE });
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual([expect.objectContaining({ name: 'Corporate OP', client_id: 'registrar' })]);
      expect(all.body).not.toContain('registrar-secret');
      const id = all.json<{ id: string }[]>()[0]!.id;
      const one = await call(t.app, reader, { method: 'GET', url: `${BASE}/${id}` });
      expect(one.body).not.toContain('registrar-secret');
      expect((await call(t.app, admin, { method: 'GET', url: `${BASE}/${id}` })).json().client_secret).toBe(
        'registrar-secret',
      );
    });

    it('updates a provider, keeping the secret when none is sent', async () => {
      const id = (await findClientRegistrationProviders(t.db))[0]!.id;
      const res = await call(t.app, admin, {
        method: 'PUT',
        url: `${BASE}/${id}`,
        payload: { ...providerBody(), client_secret: undefined, name: 'Corporate', scopes: [] },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Corporate', client_secret: 'registrar-secret' });
    });

    it('is refused (403) without portal-client_registration_provider-r, -c, -u and -d', async () => {
      const id = (await findClientRegistrationProviders(t.db))[0]!.id;
      const plain = (await signInNewUser(t.app, t.db)).session;
      const calls = [
        [plain, 'GET', BASE, undefined, 'portal-client_registration_provider-r'],
        [plain, 'GET', `${BASE}/${id}`, undefined, 'portal-client_registration_provider-r'],
        [reader, 'POST', BASE, providerBody(), 'portal-client_registration_provider-c'],
        [reader, 'PUT', `${BASE}/${id}`, providerBody(), 'portal-client_registration_provider-u'],
        [reader, 'DELETE', `${BASE}/${id}`, undefined, 'portal-client_registration_provider-d'],
      ] as const;
      for (const [session, method, url, payload, permission] of calls) {
        const res = await call(t.app, session, { method, url, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual(errorBody(403, `You do not have the permission ${permission}`));
      }
      expect(await stored()).toEqual(['Corporate']);
    });

    it('deletes the provider (portal-client_registration_provider-d)', async () => {
      const id = (await findClientRegistrationProviders(t.db))[0]!.id;
      expect((await call(t.app, admin, { method: 'DELETE', url: `${BASE}/${id}` })).statusCode).toBe(204);
      expect(await stored()).toEqual([]);
      expect((await call(t.app, admin, { method: 'GET', url: `${BASE}/${id}` })).statusCode).toBe(404);
    });
  });
}

describe('the outbound-URL guard', () => {
  it('refuses a discovery endpoint on a private address unless allowed, with the same message', async () => {
    const t = await startTestApp('sqlite');
    try {
      const admin = await login(t.app, 'admin', 'admin');
      const res = await call(t.app, admin, { method: 'POST', url: BASE, payload: providerBody() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody(400, PROVIDER_UNUSABLE));
      expect(await findClientRegistrationProviders(t.db)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('applications with client registration (end to end against a real OpenID provider)', () => {
  let t: TestApp;
  let admin: TestSession;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { options: ALLOW_LOCAL });
    admin = await login(t.app, 'admin', 'admin');
    expect(
      (await call(t.app, admin, { method: 'POST', url: BASE, payload: providerBody() })).statusCode,
    ).toBe(201);
    const flag = await call(t.app, admin, {
      method: 'POST',
      url: '/portal',
      payload: { application: { registration: { enabled: true } } },
    });
    expect(flag.statusCode, flag.body).toBe(200);
  });
  afterAll(() => t?.close());

  const client = (id: string) => op.provider.Client.find(id);

  it('registers the client of a WEB application at the provider, renews its secret, and deletes it with the application', async () => {
    const created = await call(t.app, admin, {
      method: 'POST',
      url: '/applications',
      payload: {
        name: 'Billing portal',
        description: 'Web application',
        settings: {
          oauth: {
            application_type: 'WEB',
            grant_types: ['authorization_code'],
            redirect_uris: ['https://billing.example.test/cb'],
          },
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const app = created.json<{
      id: string;
      settings: { oauth: { client_id: string; client_secret: string } };
    }>();
    const registered = await client(app.settings.oauth.client_id);
    expect(registered?.clientSecret).toBe(app.settings.oauth.client_secret);
    expect(registered?.redirectUris).toEqual(['https://billing.example.test/cb']);
    expect(registered?.clientName).toBe('Billing portal');

    const renewed = await call(t.app, admin, { method: 'POST', url: `/applications/${app.id}/renew_secret` });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const oauth = renewed.json<typeof app>().settings.oauth;
    expect(oauth.client_secret).not.toBe(app.settings.oauth.client_secret);
    expect((await client(oauth.client_id))?.clientSecret).toBe(oauth.client_secret);
    if (oauth.client_id !== app.settings.oauth.client_id)
      expect(await client(app.settings.oauth.client_id)).toBeUndefined();

    expect((await call(t.app, admin, { method: 'DELETE', url: `/applications/${app.id}` })).statusCode).toBe(
      204,
    );
    expect(await client(oauth.client_id)).toBeUndefined();
  });

  it('creates nothing when the provider refuses the registration', async () => {
    const before = await t.db.selectFrom('applications').select('id').execute();
    const res = await call(t.app, admin, {
      method: 'POST',
      url: '/applications',
      payload: {
        name: 'Native app',
        description: 'd',
        // oidc-provider refuses the password grant: the registration fails.
        settings: {
          oauth: {
            application_type: 'NATIVE',
            grant_types: ['authorization_code', 'password'],
            redirect_uris: ['com.example.app:/cb'],
          },
        },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(400, PROVIDER_UNUSABLE));
    expect(await t.db.selectFrom('applications').select('id').execute()).toEqual(before);
  });
});
