import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_EVENT_TYPES, ApiDefinition, ApiName, ApiVersion, ApiVisibility } from '@portico/model';
import { currentUser } from '../../http/auth.js';
import { assertIfMatch, sendEtag } from '../../http/etag.js';
import { apiEtag } from './apis.mapper.js';
import type { ApiRouteKit } from './apis.routes.support.js';
import { ApiParams, csv } from './apis.routes.support.js';

/** `POST apis/{id}/rollback`: the payload of an earlier PUBLISH_API event (id and instants ignored). */
const RollbackBody = z.object({
  description: z.string().nullable().optional(),
  visibility: ApiVisibility.optional(),
  definition: ApiDefinition.extend({ id: z.string().optional(), name: ApiName, version: ApiVersion }),
});

/** The lifecycle calls of an API: start/stop, deployment, synchronization state, rollback, events. */
export function apiLifecycleRoutes(app: FastifyInstance, kit: ApiRouteKit): void {
  const { guards } = kit.deps;
  const { lifecycle } = kit.services;
  const { fullJson } = kit;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/apis/:api',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Start or stop the API (If-Match); 204 with the new entity tag, as Gravitee 1.x',
        params: ApiParams,
        querystring: z.object({
          action: z
            .string()
            .transform((s) => s.toUpperCase())
            .pipe(z.enum(['START', 'STOP'])),
        }),
      },
      preHandler: guards.require('api-definition-u'),
    },
    async (request, reply) => {
      const row = await lifecycle.changeState(
        currentUser(request),
        request.params.api,
        request.query.action,
        (etag) => assertIfMatch(request, etag),
      );
      sendEtag(reply, apiEtag(row));
      return reply.code(204).send();
    },
  );

  r.post(
    '/apis/:api/deploy',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Deploy the API as it is now, with its published and deprecated plans',
        params: ApiParams,
        body: z.object({ deploymentLabel: z.string().max(100).optional() }).nullish(),
      },
      preHandler: guards.require('api-definition-u'),
    },
    async (request, reply) => {
      const row = await lifecycle.deploy(
        currentUser(request),
        request.params.api,
        request.body?.deploymentLabel,
      );
      sendEtag(reply, apiEtag(row));
      return fullJson(request, row);
    },
  );

  r.get(
    '/apis/:api/state',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Whether the API is as last deployed',
        params: ApiParams,
        response: { 200: z.object({ api_id: z.string(), is_synchronized: z.boolean() }) },
      },
      preHandler: guards.require('api-definition-r'),
    },
    async (request) => ({
      api_id: request.params.api,
      is_synchronized: await lifecycle.isSynchronized(request.params.api),
    }),
  );

  r.post(
    '/apis/:api/rollback',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Restore the definition, description and visibility of an earlier deployment',
        params: ApiParams,
        body: RollbackBody,
      },
      preHandler: guards.require('api-definition-u'),
    },
    async (request, reply) => {
      const { definition, description, visibility } = request.body;
      const row = await lifecycle.rollback(
        currentUser(request),
        request.params.api,
        {
          definition: { ...definition, id: request.params.api },
          description,
          ...(visibility ? { visibility } : {}),
        },
        (etag) => assertIfMatch(request, etag),
      );
      sendEtag(reply, apiEtag(row));
      return fullJson(request, row);
    },
  );

  r.get(
    '/apis/:api/events',
    {
      schema: {
        tags: ['APIs'],
        summary: 'The deployment and lifecycle events of the API, newest first',
        params: ApiParams,
        querystring: z.object({ type: csv(API_EVENT_TYPES, 'event type') }),
      },
      preHandler: guards.require('api-event-r'),
    },
    async (request) => {
      const types = request.query.type.map((t) => t.toUpperCase());
      return lifecycle.events(request.params.api, types.length > 0 ? types : undefined);
    },
  );
}
