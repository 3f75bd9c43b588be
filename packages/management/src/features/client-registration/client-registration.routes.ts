import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClientRegistrationProviderInput, parsePermission } from '@portico/model';
import { createOutboundPolicy } from '@portico/outbound';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import { ApplicationSecretService } from '../applications/application-secret.service.js';
import { toApplicationJson } from '../applications/applications.mapper.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SubscriptionServices } from '../subscriptions/subscriptions.wiring.js';
import { ApplicationRegistrar } from './application-registrar.js';
import { ClientRegistrationProviderService, toProviderJson } from './client-registration.service.js';
import { DcrClient } from './dcr-client.js';

const Params = z.object({ id: z.string().min(1).max(200) });
const ApplicationParams = z.object({ application: z.string().min(1) });
const SECRET_READER = parsePermission('portal-client_registration_provider-u');

/** The DCR client (through the outbound-URL guard) and the registrar of applications' clients. */
export function createClientRegistration(ctx: AppContext) {
  const dcr = new DcrClient(createOutboundPolicy(ctx.options.outbound), ctx.log);
  return { dcr, registrar: new ApplicationRegistrar(ctx.db, dcr, ctx.log, ctx.now) };
}

export interface ClientRegistrationRouteDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
  clientRegistration: ReturnType<typeof createClientRegistration>;
  services: SubscriptionServices;
}

/**
 * The configuration/applications/registration/providers calls of section 7
 * (portal-client_registration_provider-r/c/u/d; the client secret only to who may change the provider)
 * and `POST applications/{id}/renew_secret`.
 */
export function clientRegistrationRoutes(app: FastifyInstance, deps: ClientRegistrationRouteDeps): void {
  const { ctx, guards, permissions } = deps;
  const service = new ClientRegistrationProviderService(
    ctx.db,
    deps.clientRegistration.dcr,
    deps.audit,
    ctx.now,
  );
  const secrets = new ApplicationSecretService({
    db: ctx.db,
    applications: deps.services.applications,
    audit: deps.audit,
    subscriptions: deps.services.subscriptions,
    registrar: deps.clientRegistration.registrar,
    now: ctx.now,
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Client registration providers'];
  const base = '/configuration/applications/registration/providers';
  const withSecret = async (userId: string) => permissions.has(userId, SECRET_READER);

  r.get(
    base,
    {
      schema: { tags, summary: 'The client registration providers, by name' },
      preHandler: guards.require('portal-client_registration_provider-r'),
    },
    async (request) => {
      const secret = await withSecret(currentUser(request).id);
      return (await service.list()).map((row) => toProviderJson(row, secret));
    },
  );

  r.get(
    `${base}/:id`,
    {
      schema: { tags, summary: 'One client registration provider', params: Params },
      preHandler: guards.require('portal-client_registration_provider-r'),
    },
    async (request) =>
      toProviderJson(await service.get(request.params.id), await withSecret(currentUser(request).id)),
  );

  r.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create the client registration provider (its discovery and client credentials are checked)',
        body: ClientRegistrationProviderInput,
      },
      preHandler: guards.require('portal-client_registration_provider-c'),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const row = await service.create(user.id, request.body);
      return reply.code(201).send(toProviderJson(row, await withSecret(user.id)));
    },
  );

  r.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Update a client registration provider',
        params: Params,
        body: ClientRegistrationProviderInput,
      },
      preHandler: guards.require('portal-client_registration_provider-u'),
    },
    async (request) =>
      toProviderJson(await service.update(currentUser(request).id, request.params.id, request.body), true),
  );

  r.delete(
    `${base}/:id`,
    {
      schema: { tags, summary: 'Delete a client registration provider', params: Params },
      preHandler: guards.require('portal-client_registration_provider-d'),
    },
    async (request, reply) => {
      await service.delete(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  );

  r.post(
    '/applications/:application/renew_secret',
    {
      schema: {
        tags: ['Applications'],
        summary: 'A new client secret for an OAuth application (from its client registration provider)',
        params: ApplicationParams,
      },
      preHandler: guards.require('application-definition-u'),
    },
    async (request) => {
      const row = await secrets.renew(currentUser(request), request.params.application);
      return toApplicationJson(row, (await deps.services.applications.owners([row.id])).get(row.id));
    },
  );
}
