import type { FastifyInstance } from 'fastify';
import type { IdentityProviderRow } from '@portico/storage';
import { findEnabledIdentityProviders } from '@portico/storage';
import type { AppContext } from '../../context.js';
import { endpointsOf } from '../social-login/providers.js';

/** What the sign-in page needs to start a provider's authorization flow; never the client secret. */
export function toPublicIdentityJson(row: IdentityProviderRow) {
  const c = JSON.parse(row.configuration) as Record<string, unknown>;
  const endpoints = endpointsOf(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    clientId: c.clientId ?? null,
    authorizationEndpoint: endpoints.authorizationEndpoint,
    userLogoutEndpoint: endpoints.userLogoutEndpoint,
    scopes: endpoints.scopes,
    color: c.color ?? null,
  };
}

/** GET portal/identities: the enabled social identity providers, for the sign-in page (public). */
export function identitiesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/portal/identities',
    { schema: { tags: ['Portal'], summary: 'Enabled identity providers for sign-in' } },
    async () => (await findEnabledIdentityProviders(ctx.db)).map(toPublicIdentityJson),
  );
}
