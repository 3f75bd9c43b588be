import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiDescription,
  ApiLifecycleState,
  ApiName,
  ApiVersion,
  ApiVisibility,
  NewApi,
  Paths,
  Property,
  Proxy,
  RequiredContextPath,
  Resource,
  ResponseTemplates,
  Services,
  CONTEXT_PATH_REQUIRED,
} from '@portico/model';
import { currentUser, requireUser } from '../../http/auth.js';
import { assertIfMatch, sendEtag } from '../../http/etag.js';
import { apiMembersRoutes } from './api-members.routes.js';
import { apiMetadataRoutes } from './api-metadata.routes.js';
import { apiExportRoutes, apiImportRoutes } from './api-import-export.routes.js';
import { apiLifecycleRoutes } from './api-lifecycle.routes.js';
import { apiPathMappingsRoutes } from './api-path-mappings.routes.js';
import { apiEtag, toOwnerJson, toPublicApiJson } from './apis.mapper.js';
import { pictureOf } from './apis.picture.js';
import { apiRatingFields } from '../ratings/api-rating.js';
import type { ApiRouteDeps } from './apis.routes.support.js';
import { ApiParams, apiRouteKit, createApiServices } from './apis.routes.support.js';

export type { ApiRouteDeps, ApiServices } from './apis.routes.support.js';
export { createApiServices } from './apis.routes.support.js';

const ListQuery = z.object({
  view: z.string().min(1).optional(),
  group: z.string().min(1).optional(),
  top: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  order: z.enum(['name', '-name', 'context_path', '-context_path']).optional(),
});
const SearchQuery = ListQuery.extend({ q: z.string().max(200).optional() });

/** `POST apis`: the context path also as `contextPath`, as Gravitee 1.x clients write it. */
const NewApiBody = NewApi.extend({
  context_path: RequiredContextPath.optional(),
  contextPath: RequiredContextPath.optional(),
})
  .superRefine((body, ctx) => {
    if (body.context_path === undefined && body.contextPath === undefined)
      ctx.addIssue({ code: 'custom', path: ['context_path'], message: CONTEXT_PATH_REQUIRED });
  })
  .transform(({ contextPath, context_path, ...rest }): NewApi => ({
    ...rest,
    context_path: context_path ?? contextPath ?? '',
  }));

const Labels = z.array(z.string().trim().min(1).max(64)).max(100);
const Ids = z.array(z.string().min(1)).max(1000);

/** `PUT apis/{id}`: the entity as `GET` gives it; read-only fields are ignored, absent ones kept. */
const UpdateApiBody = z.object({
  name: ApiName.optional(),
  version: ApiVersion.optional(),
  description: ApiDescription.optional(),
  visibility: ApiVisibility.optional(),
  lifecycle_state: ApiLifecycleState.optional(),
  labels: Labels.optional(),
  views: Ids.optional(),
  groups: Ids.optional(),
  tags: Ids.optional(),
  picture: z.string().max(1_500_000).nullable().optional(),
  proxy: Proxy.optional(),
  paths: Paths.optional(),
  properties: z.array(Property).optional(),
  services: Services.optional(),
  resources: z.array(Resource).optional(),
  path_mappings: z.array(z.string()).optional(),
  response_templates: ResponseTemplates.optional(),
});

/**
 * The API calls of console-apis.md section 7 (list, search, creation, import, export, general settings,
 * lifecycle, deployment, events, quality, picture) and the portal's catalogue calls.
 */
export function apisRoutes(
  app: FastifyInstance,
  deps: ApiRouteDeps,
  services = createApiServices(deps),
): void {
  const { guards } = deps;
  const { apis, quality } = services;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const kit = apiRouteKit(app, deps, services);
  const { pictureUrl, fullJson, readable } = kit;

  /** The list as the database writes it: 10,000 APIs answer without a JavaScript object each. */
  const list = async (request: FastifyRequest, reply: FastifyReply, query: z.infer<typeof SearchQuery>) => {
    const prefix = `${request.protocol}://${request.host}${app.prefix}/apis/`;
    const json = await apis.list(request.user, { ...query, text: query.q }, prefix);
    return reply.header('Content-Type', 'application/json; charset=utf-8').send(json);
  };

  r.get(
    '/apis',
    {
      schema: {
        tags: ['APIs'],
        summary: 'The APIs the caller may see (PUBLIC ones, those of which they are members; admins: all)',
        querystring: ListQuery,
      },
    },
    async (request, reply) => list(request, reply, request.query),
  );

  for (const path of ['/apis/_search', '/portal/apis/_search']) {
    r.post(
      path,
      {
        schema: {
          tags: ['APIs'],
          summary:
            'Search the APIs the caller may see by words of their name, description, context path, labels',
          querystring: SearchQuery,
        },
      },
      async (request, reply) => list(request, reply, request.query),
    );
  }

  r.post(
    '/apis',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Create an API (stopped, private, one endpoint)',
        body: NewApiBody,
      },
      preHandler: guards.require('management-api-c'),
    },
    async (request, reply) => {
      const row = await apis.create(currentUser(request), request.body);
      sendEtag(reply, apiEtag(row));
      return reply.code(201).send(await fullJson(request, row));
    },
  );

  r.post(
    '/apis/verify',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Check that a context path is free (no API on it, on a parent or on a sub-path)',
        body: z.object({ context_path: RequiredContextPath, api_id: z.string().optional() }),
      },
      preHandler: requireUser,
    },
    async (request) => {
      await apis.verifyContextPath(request.body.context_path, request.body.api_id);
      return { context_path: request.body.context_path, available: true };
    },
  );

  apiImportRoutes(app, kit);

  r.get(
    '/apis/:api',
    {
      schema: {
        tags: ['APIs'],
        summary: 'One API (its entity tag in the ETag header); PUBLIC APIs without their backends for others',
        params: ApiParams,
      },
    },
    async (request, reply) => {
      const { row, full } = await readable(request, request.params.api);
      sendEtag(reply, apiEtag(row));
      const rating = await apiRatingFields(deps.ctx.db, deps.settings, row.id);
      if (full) return { ...(await fullJson(request, row)), ...rating };
      const owner = await apis.primaryOwner(row.id);
      const manageable = await apis.isManageable(request.user, row.id);
      return {
        ...toPublicApiJson(row, owner ? toOwnerJson(owner) : null, pictureUrl(request)),
        manageable,
        ...rating,
      };
    },
  );

  r.put(
    '/apis/:api',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Save the API (If-Match: its entity tag; 412 when stale)',
        params: ApiParams,
        body: UpdateApiBody,
      },
      preHandler: guards.require('api-definition-u'),
    },
    async (request, reply) => {
      const row = await apis.update(currentUser(request), request.params.api, request.body, (etag) =>
        assertIfMatch(request, etag),
      );
      sendEtag(reply, apiEtag(row));
      return fullJson(request, row);
    },
  );

  r.delete(
    '/apis/:api',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Delete a stopped API without active plans nor subscriptions',
        params: ApiParams,
      },
      preHandler: guards.require('api-definition-d'),
    },
    async (request, reply) => {
      await apis.delete(currentUser(request), request.params.api);
      return reply.code(204).send();
    },
  );

  apiLifecycleRoutes(app, kit);
  apiPathMappingsRoutes(app, kit);

  r.get(
    '/apis/:api/quality',
    {
      schema: {
        tags: ['APIs'],
        summary: 'The quality score (0 to 1) and the metrics the API passes',
        params: ApiParams,
        response: { 200: z.object({ score: z.number(), metrics_passed: z.record(z.string(), z.boolean()) }) },
      },
    },
    async (request) => {
      await readable(request, request.params.api);
      return quality.quality(request.params.api);
    },
  );

  r.get(
    '/apis/:api/picture',
    {
      schema: {
        tags: ['APIs'],
        summary: "The API's picture (a generated one when none is set)",
        params: ApiParams,
      },
    },
    async (request, reply) => {
      const { row } = await readable(request, request.params.api);
      const picture = pictureOf(row);
      return reply
        .header('Content-Type', picture.type)
        .header('Cache-Control', 'private, max-age=300')
        .header('X-Content-Type-Options', 'nosniff')
        .send(picture.body);
    },
  );

  apiExportRoutes(app, kit);

  apiMembersRoutes(app, guards, services.members);
  apiMetadataRoutes(app, guards, services.metadata);
}
