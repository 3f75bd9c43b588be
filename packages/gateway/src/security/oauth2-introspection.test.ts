import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi, subscribe } from '../test-support/deployments.js';
import { startPolicyHarness, type PolicyHarness } from '../test-support/policy-harness.js';
import type { AuthorizationServer } from '../test-support/authorization-server.js';
import {
  CLIENT_SECRETS,
  bearerCalls,
  startAuthorizationServer,
} from '../test-support/authorization-server.js';

describe('OAuth2 plans against a real OpenID provider', () => {
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
});
