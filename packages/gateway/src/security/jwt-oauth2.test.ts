import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CryptoKey, JWK } from 'jose';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployedApi } from '@portico/model';
import { deployedApi, subscribe } from '../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';

/** The resource server (audience) for which the provider issues RFC 9068 JWT access tokens. */
const RESOURCE = 'https://api.portico.test';
const SIGNING_KID = 'portico-test-key';

interface AuthorizationServer {
  issuer: string;
  jwksUri: string;
  introspectionEndpoint: string;
  /** The provider's signing key, to make tokens the provider never issued (expired ones). */
  privateKey: CryptoKey;
  publicKeyPem: string;
  /** client_credentials grant: a JWT for RESOURCE when `resource` is set, else an opaque token. */
  token(clientId: string, options?: { resource?: boolean; scope?: string }): Promise<string>;
  revoke(clientId: string, token: string): Promise<void>;
  /** Calls received by the introspection endpoint so far. */
  introspections(): number;
  close(): Promise<void>;
}

const CLIENT_SECRETS: Record<string, string> = {
  'app-a': 'secret-of-app-a',
  'app-b': 'secret-of-app-b',
  gateway: 'secret-of-the-gateway',
};

const basic = (clientId: string) =>
  `Basic ${Buffer.from(`${clientId}:${CLIENT_SECRETS[clientId]}`).toString('base64')}`;

/**
 * A real OpenID provider (oidc-provider): applications app-a and app-b use client_credentials, the gateway
 * is a confidential client allowed to introspect. Tokens for RESOURCE are RS256 JWTs, others opaque.
 */
async function startAuthorizationServer(): Promise<AuthorizationServer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: SIGNING_KID, alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const application = (clientId: string) => ({
    client_id: clientId,
    client_secret: CLIENT_SECRETS[clientId]!,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    scope: 'read write',
  });
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [
      application('app-a'),
      application('app-b'),
      {
        client_id: 'gateway',
        client_secret: CLIENT_SECRETS.gateway!,
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    scopes: ['read', 'write'],
    ttl: { ClientCredentials: () => 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
      revocation: { enabled: true, allowedPolicy: async () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => false,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== RESOURCE) throw new errors.InvalidTarget();
          return {
            scope: 'read write',
            audience: RESOURCE,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  });
  let introspections = 0;
  provider.use(async (ctx, next) => {
    if (ctx.path === '/token/introspection') introspections += 1;
    await next();
  });
  server.on('request', provider.callback());

  const form = (clientId: string, path: string, params: Record<string, string>) =>
    fetch(`${issuer}${path}`, {
      method: 'POST',
      headers: { authorization: basic(clientId), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    privateKey,
    publicKeyPem: await exportSPKI(publicKey),
    async token(clientId, options = {}) {
      const res = await form(clientId, '/token', {
        grant_type: 'client_credentials',
        scope: options.scope ?? 'read',
        ...(options.resource ? { resource: RESOURCE } : {}),
      });
      const body = (await res.json()) as { access_token?: string; error?: string };
      if (!body.access_token) throw new Error(`no token for ${clientId}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async revoke(clientId, token) {
      const res = await form(clientId, '/token/revocation', { token });
      if (res.status !== 200) throw new Error(`revocation answered ${res.status}`);
    },
    introspections: () => introspections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const jwtPlan = (definition: Record<string, unknown>) => ({
  security: 'JWT' as const,
  securityDefinition: JSON.stringify(definition),
});

describe('JWT and OAuth2 plans against a real OpenID provider', () => {
  let h: PolicyHarness;
  let as: AuthorizationServer;

  beforeAll(async () => {
    [h, as] = await Promise.all([startPolicyHarness(), startAuthorizationServer()]);
  });
  afterAll(async () => {
    await h?.close();
    await as?.close();
  });

  const call = (path: string, token?: string) =>
    fetch(`${h.gateway.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  /** The request rows reported for an API, oldest first. */
  async function reported(api: DeployedApi) {
    await h.gateway.reporter.flush();
    return h.t.storage.db
      .selectFrom('requests')
      .selectAll()
      .where('api_id', '=', api.id)
      .orderBy('timestamp')
      .execute();
  }

  describe('JWT plan, keys from the JWKS URL', () => {
    let api: DeployedApi;
    let applicationId: string;

    beforeAll(async () => {
      api = deployedApi('/jwt-jwks', [h.backend.url], {
        plans: [
          jwtPlan({ signature: 'RSA_RS256', publicKeyResolver: 'JWKS_URL', resolverParameter: as.jwksUri }),
        ],
      });
      ({ applicationId } = await subscribe(h.t.storage.db, api, api.plans[0]!.id, { clientId: 'app-a' }));
      await h.deploy(api);
    });

    it('accepts the JWT access token of a client with an accepted subscription', async () => {
      const token = await as.token('app-a', { resource: true });
      const res = await call('/jwt-jwks/orders', token);
      expect(res.status).toBe(200);
      const seen = (await res.json()) as Echo;
      expect(seen.url).toBe('/orders');
      expect(seen.headers.authorization).toBe(`Bearer ${token}`);
      const row = (await reported(api)).at(-1)!;
      expect(row).toMatchObject({
        status: 200,
        plan_id: api.plans[0]!.id,
        application_id: applicationId,
        security_type: 'JWT',
        user: 'app-a',
      });
    });

    it('refuses with 403 a valid token of a client without subscription', async () => {
      const token = await as.token('app-b', { resource: true });
      const res = await call('/jwt-jwks/orders', token);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(
        'No active subscription for this client',
      );
    });

    it('refuses with 401 a forged token, an expired token, a malformed token and no token at all', async () => {
      const claims = { client_id: 'app-a', scope: 'read', aud: RESOURCE, iss: as.issuer, sub: 'app-a' };
      const { privateKey: otherKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: SIGNING_KID, typ: 'at+jwt' })
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(otherKey);
      const expired = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: SIGNING_KID, typ: 'at+jwt' })
        .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
        .sign(as.privateKey);
      const hitsBefore = h.backend.hits;
      for (const token of [forged, expired, 'not-a-jwt']) {
        const res = await call('/jwt-jwks/orders', token);
        expect(res.status).toBe(401);
        expect(((await res.json()) as { message: string }).message).toBe('Invalid or expired token');
      }
      expect((await call('/jwt-jwks/orders')).status).toBe(401);
      expect(h.backend.hits).toBe(hitsBefore);
    });
  });

  describe('JWT plan, given key', () => {
    it('verifies HS256 tokens with the plan secret', async () => {
      const secret = 'a-shared-secret-of-at-least-32-bytes!!';
      const api = deployedApi('/jwt-hs256', [h.backend.url], {
        plans: [
          jwtPlan({ signature: 'HMAC_HS256', publicKeyResolver: 'GIVEN_KEY', resolverParameter: secret }),
        ],
      });
      await subscribe(h.t.storage.db, api, api.plans[0]!.id, { clientId: 'hs-client' });
      await h.deploy(api);
      const sign = (key: string, clientId = 'hs-client') =>
        new SignJWT({ client_id: clientId, sub: 'alice' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(key));

      expect((await call('/jwt-hs256', await sign(secret))).status).toBe(200);
      expect((await reported(api)).at(-1)).toMatchObject({ user: 'alice', security_type: 'JWT' });
      expect((await call('/jwt-hs256', await sign(`${secret}-other`))).status).toBe(401);
      expect((await call('/jwt-hs256', await sign(secret, 'someone-else'))).status).toBe(403);
    });

    it('verifies RS256 tokens with the PEM public key of the plan', async () => {
      const api = deployedApi('/jwt-pem', [h.backend.url], {
        plans: [
          jwtPlan({
            signature: 'RSA_RS256',
            publicKeyResolver: 'GIVEN_KEY',
            resolverParameter: as.publicKeyPem,
          }),
        ],
      });
      await subscribe(h.t.storage.db, api, api.plans[0]!.id, { clientId: 'app-a' });
      const { publicKey: otherPublic } = await generateKeyPair('RS256', { extractable: true });
      const other = deployedApi('/jwt-pem-other', [h.backend.url], {
        plans: [
          jwtPlan({
            signature: 'RSA_RS256',
            publicKeyResolver: 'GIVEN_KEY',
            resolverParameter: await exportSPKI(otherPublic),
          }),
        ],
      });
      await subscribe(h.t.storage.db, other, other.plans[0]!.id, { clientId: 'app-a' });
      await h.deploy(api);
      await h.deploy(other);

      const token = await as.token('app-a', { resource: true });
      expect((await call('/jwt-pem', token)).status).toBe(200);
      expect((await call('/jwt-pem-other', token)).status).toBe(401);
    });

    it('does not send the Authorization header to the backend when propagateAuthHeader is false', async () => {
      const api = deployedApi('/jwt-no-propagate', [h.backend.url], {
        plans: [
          jwtPlan({
            signature: 'RSA_RS256',
            publicKeyResolver: 'GIVEN_KEY',
            resolverParameter: as.publicKeyPem,
            propagateAuthHeader: false,
          }),
        ],
      });
      await subscribe(h.t.storage.db, api, api.plans[0]!.id, { clientId: 'app-a' });
      await h.deploy(api);
      const res = await call('/jwt-no-propagate', await as.token('app-a', { resource: true }));
      expect(res.status).toBe(200);
      expect(((await res.json()) as Echo).headers.authorization).toBeUndefined();
    });
  });

  describe('OAuth2 plan, token introspection', () => {
    const oauth2Api = (
      contextPath: string,
      definition: Record<string, unknown> = {},
      resource: Record<string, unknown> = {},
    ) =>
      deployedApi(contextPath, [h.backend.url], {
        plans: [
          {
            security: 'OAUTH2',
            securityDefinition: JSON.stringify({ oauthResource: 'provider', ...definition }),
          },
        ],
        definition: {
          resources: [
            {
              name: 'provider',
              type: 'oauth2',
              configuration: {
                introspectionEndpoint: as.introspectionEndpoint,
                clientId: 'gateway',
                clientSecret: CLIENT_SECRETS.gateway,
                ...resource,
              },
            },
          ],
        },
      });

    it('accepts an active opaque token of a subscribed client, refuses it once revoked, and an unknown one', async () => {
      const api = oauth2Api('/oauth2');
      const { applicationId } = await subscribe(h.t.storage.db, api, api.plans[0]!.id, { clientId: 'app-a' });
      await h.deploy(api);

      const token = await as.token('app-a');
      expect(token.split('.')).toHaveLength(1); // opaque: only the provider can tell what it is
      expect((await call('/oauth2/items', token)).status).toBe(200);
      expect((await reported(api)).at(-1)).toMatchObject({
        plan_id: api.plans[0]!.id,
        application_id: applicationId,
        security_type: 'OAUTH2',
      });

      await as.revoke('app-a', token);
      const revoked = await call('/oauth2/items', token);
      expect(revoked.status).toBe(401);
      expect((await call('/oauth2/items', 'an-unknown-token')).status).toBe(401);
      expect((await call('/oauth2/items', await as.token('app-b'))).status).toBe(403);
    });

    it('reuses an introspection answer for introspectionCacheSeconds, revoked or not', async () => {
      const api = oauth2Api('/oauth2-cached', {}, { introspectionCacheSeconds: 60 });
      await subscribe(h.t.storage.db, api, api.plans[0]!.id, { clientId: 'app-a' });
      await h.deploy(api);
      const token = await as.token('app-a');
      const before = as.introspections();
      const first = await Promise.all([1, 2, 3].map(() => call('/oauth2-cached', token)));
      expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(as.introspections() - before).toBe(1);
      // The price of the cache: a revocation is seen once the answer is older than the cache time.
      await as.revoke('app-a', token);
      expect((await call('/oauth2-cached', token)).status).toBe(200);
      expect(as.introspections() - before).toBe(1);
    });

    it('checks the required scopes when checkRequiredScopes is on, and only then', async () => {
      const checked = oauth2Api('/oauth2-scoped', { checkRequiredScopes: true, requiredScopes: ['write'] });
      const unchecked = oauth2Api('/oauth2-unscoped', {
        checkRequiredScopes: false,
        requiredScopes: ['write'],
      });
      await subscribe(h.t.storage.db, checked, checked.plans[0]!.id, { clientId: 'app-a' });
      await subscribe(h.t.storage.db, unchecked, unchecked.plans[0]!.id, { clientId: 'app-a' });
      await h.deploy(checked);
      await h.deploy(unchecked);

      const readOnly = await as.token('app-a', { scope: 'read' });
      const readWrite = await as.token('app-a', { scope: 'read write' });
      const refused = await call('/oauth2-scoped', readOnly);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toBe(
        'The token does not hold the required scopes',
      );
      expect((await call('/oauth2-scoped', readWrite)).status).toBe(200);
      expect((await call('/oauth2-unscoped', readOnly)).status).toBe(200);
    });
  });

  it('selects the JWT plan when a bearer token is presented, the key-less plan otherwise', async () => {
    const api = deployedApi('/mixed-plans', [h.backend.url], {
      plans: [
        { security: 'KEY_LESS' },
        jwtPlan({ signature: 'RSA_RS256', publicKeyResolver: 'JWKS_URL', resolverParameter: as.jwksUri }),
      ],
    });
    const [keyless, jwt] = api.plans as [DeployedApi['plans'][0], DeployedApi['plans'][0]];
    const { applicationId } = await subscribe(h.t.storage.db, api, jwt.id, { clientId: 'app-a' });
    await h.deploy(api);

    expect((await call('/mixed-plans')).status).toBe(200);
    expect((await call('/mixed-plans', await as.token('app-a', { resource: true }))).status).toBe(200);
    // A bearer token selects the JWT plan: a bad one is refused, not let through as key-less.
    expect((await call('/mixed-plans', 'not-a-jwt')).status).toBe(401);

    const rows = await reported(api);
    expect(rows.map((r) => [r.status, r.plan_id, r.security_type, r.application_id])).toEqual([
      [200, keyless.id, 'KEY_LESS', null],
      [200, jwt.id, 'JWT', applicationId],
      [401, null, null, null],
    ]);
  });
});
