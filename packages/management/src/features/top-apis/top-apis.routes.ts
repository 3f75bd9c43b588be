import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { TopApi, TopApisService } from './top-apis.service.js';

const ApiRef = z.object({ api: z.string().min(1, 'api is required') });

/** `configuration/top-apis` (console-applications-and-settings.md 7). */
export function topApisRoutes(app: FastifyInstance, topApis: TopApisService, guards: PermissionGuards): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const prefix = app.prefix;
  const toJson = (request: FastifyRequest) => (top: TopApi) => ({
    api: top.api.id,
    name: top.api.name,
    version: top.api.version,
    description: top.api.description,
    picture_url: `${request.protocol}://${request.host}${prefix}/apis/${encodeURIComponent(top.api.id)}/picture?v=${top.api.updated_at}`,
    order: top.order,
  });

  r.get(
    '/configuration/top-apis',
    {
      schema: { tags: ['Top APIs'], summary: 'The top APIs in order' },
      preHandler: guards.require('portal-top_apis-r'),
    },
    async (request) => (await topApis.list()).map(toJson(request)),
  );
  r.post(
    '/configuration/top-apis',
    {
      schema: { tags: ['Top APIs'], summary: 'Add a top API at the end', body: ApiRef },
      preHandler: guards.require('portal-top_apis-c'),
    },
    async (request) => (await topApis.add(currentUser(request), request.body.api)).map(toJson(request)),
  );
  r.put(
    '/configuration/top-apis',
    {
      schema: { tags: ['Top APIs'], summary: 'Reorder the top APIs', body: z.array(ApiRef).max(1000) },
      preHandler: guards.require('portal-top_apis-u'),
    },
    async (request) =>
      (
        await topApis.reorder(
          currentUser(request),
          request.body.map((t) => t.api),
        )
      ).map(toJson(request)),
  );
  r.delete(
    '/configuration/top-apis/:api',
    {
      schema: {
        tags: ['Top APIs'],
        summary: 'Remove a top API',
        params: z.object({ api: z.string().min(1) }),
      },
      preHandler: guards.require('portal-top_apis-d'),
    },
    async (request, reply) => {
      await topApis.remove(currentUser(request), request.params.api);
      return reply.code(204).send();
    },
  );
}
