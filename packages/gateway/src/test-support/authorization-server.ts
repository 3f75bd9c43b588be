import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CryptoKey, JWK } from 'jose';
import { exportJWK, exportSPKI, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import type { DeployedApi } from '@portico/model';
import type { PolicyHarness } from './policy-harness.js';
import { indexRequestSegments } from '@portico/storage';

/** A real OpenID provider for the JWT and OAuth2 plan tests, and the calls they make through the gateway. */

/** The resource server (audience) for which the provider issues RFC 9068 JWT access tokens. */
export const RESOURCE = 'https://api.portico.test';
export const SIGNING_KID = 'portico-test-key';

export interface AuthorizationServer {
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

export const CLIENT_SECRETS: Record<string, string> = {
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
export async function startAuthorizationServer(): Promise<AuthorizationServer> {
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

/** Calls through the harness's gateway with a bearer token, and the request rows it reported. */
export function bearerCalls(harness: () => PolicyHarness) {
  const call = (path: string, token?: string) =>
    fetch(`${harness().gateway.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  /** The request rows reported for an API, oldest first. */
  async function reported(api: DeployedApi) {
    const h = harness();
    await h.gateway.reporter.flush();
    await indexRequestSegments(h.t.storage.db);
    return h.t.storage.db
      .selectFrom('requests')
      .selectAll()
      .where('api_id', '=', api.id)
      .orderBy('timestamp')
      .execute();
  }
  return { call, reported };
}
