import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdentityProviderUpdate, NewIdentityProvider, parsePermission } from '@portico/model';
import { findEnabledIdentityProviders } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { toIdentityJson, toIdentityListItemJson, toPublicIdentityJson } from './identities.mapper.js';
import { IdentityProviderService } from './identities.service.js';

export { toPublicIdentityJson } from './identities.mapper.js';

const Params = z.object({ id: z.string().min(1).max(200) });
const SECRET_READER = parsePermission('portal-identity_provider-u');

export interface IdentitiesRouteDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
}

/**
 * GET portal/identities: the enabled identity providers for the sign-in page (public). The
 * configuration/identities calls of section 7 (portal-identity_provider-r/c/u/d); the client secret is
 * answered only to who may change the provider.
 */
export function identitiesRoutes(app: FastifyInstance, deps: IdentitiesRouteDeps): void {
  const { ctx, guards, permissions } = deps;
  const service = new IdentityProviderService(ctx.db, deps.audit, ctx.now);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Identity providers'];

  r.get(
    '/portal/identities',
    { schema: { tags: ['Portal'], summary: 'Enabled identity providers for sign-in' } },
    async () => (await findEnabledIdentityProviders(ctx.db)).map(toPublicIdentityJson),
  );

  r.get(
    '/configuration/identities',
    {
      schema: { tags, summary: 'Every identity provider, by name' },
      preHandler: guards.require('portal-identity_provider-r'),
    },
    async () => (await service.list()).map(toIdentityListItemJson),
  );

  r.get(
    '/configuration/identities/:id',
    {
      schema: { tags, summary: 'One identity provider, defaults applied', params: Params },
      preHandler: guards.require('portal-identity_provider-r'),
    },
    async (request) =>
      toIdentityJson(
        await service.get(request.params.id),
        await permissions.has(currentUser(request).id, SECRET_READER),
      ),
  );

  r.post(
    '/configuration/identities',
    {
      schema: { tags, summary: 'Create an identity provider', body: NewIdentityProvider },
      preHandler: guards.require('portal-identity_provider-c'),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const row = await service.create(user.id, request.body);
      return reply.code(201).send(toIdentityJson(row, await permissions.has(user.id, SECRET_READER)));
    },
  );

  r.put(
    '/configuration/identities/:id',
    {
      schema: { tags, summary: 'Update an identity provider', params: Params, body: IdentityProviderUpdate },
      preHandler: guards.require('portal-identity_provider-u'),
    },
    async (request) =>
      toIdentityJson(await service.update(currentUser(request).id, request.params.id, request.body), true),
  );

  r.delete(
    '/configuration/identities/:id',
    {
      schema: { tags, summary: 'Delete an identity provider', params: Params },
      preHandler: guards.require('portal-identity_provider-d'),
    },
    async (request, reply) => {
      await service.delete(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  );
}
