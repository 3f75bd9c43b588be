import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth.js';
import { sendEtag } from '../../http/etag.js';
import { importPathMappings } from './api-path-mappings.js';
import { apiEtag } from './apis.mapper.js';
import type { ApiRouteKit } from './apis.routes.support.js';
import { ApiParams } from './apis.routes.support.js';

/** `POST apis/{id}/import-path-mappings?page=` (console-apis.md 7), with api-definition-u. */
export function apiPathMappingsRoutes(app: FastifyInstance, kit: ApiRouteKit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/apis/:api/import-path-mappings',
    {
      schema: {
        tags: ['APIs'],
        summary: "Add the paths of one of the API's Swagger pages to its path mappings",
        params: ApiParams,
        querystring: z.object({ page: z.string().optional() }),
      },
      preHandler: kit.deps.guards.require('api-definition-u'),
    },
    async (request, reply) => {
      const row = await importPathMappings(
        { db: kit.deps.ctx.db, apis: kit.services.apis },
        currentUser(request),
        request.params.api,
        request.query.page,
      );
      sendEtag(reply, apiEtag(row));
      return kit.fullJson(request, row);
    },
  );
}
