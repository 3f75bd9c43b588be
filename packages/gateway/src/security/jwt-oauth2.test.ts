import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployedApi } from '@portico/model';
import { deployedApi, subscribe } from '../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import type { AuthorizationServer } from '../test-support/authorization-server.js';
import {
  RESOURCE,
  SIGNING_KID,
  bearerCalls,
  startAuthorizationServer,
} from '../test-support/authorization-server.js';

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

  const { call, reported } = bearerCalls(() => h);

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
