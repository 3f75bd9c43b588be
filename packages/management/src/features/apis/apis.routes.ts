import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_EVENT_TYPES,
  API_EXPORT_FIELDS,
  ApiDefinition,
  ApiDescription,
  ApiImportRequest,
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
  forbidden,
  invalidField,
  parsePermission,
  unauthenticated,
} from '@portico/model';
import type { ApiExportVersion } from '@portico/model';
import type { ApiRow } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { assertIfMatch, sendEtag } from '../../http/etag.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { createOutboundPolicy } from '@portico/outbound';
import type { ImportLimits, ImportSource } from './api-import.source.js';
import { DEFAULT_IMPORT_LIMITS, importBodyLimit } from './api-import.source.js';
import { ApiImportService } from './api-import.service.js';
import { ApiMembersService } from './api-members.service.js';
import { apiMembersRoutes } from './api-members.routes.js';
import { ApiMetadataService } from './api-metadata.service.js';
import { apiMetadataRoutes } from './api-metadata.routes.js';
import { buildExport, exportExclusions, exportFileName, loadExportSource } from './apis.export.js';
import type { PictureUrl } from './apis.mapper.js';
import { apiEtag, toApiJson, toOwnerJson, toPublicApiJson } from './apis.mapper.js';
import { pictureOf } from './apis.picture.js';
import { ApiLifecycleService } from './api-lifecycle.service.js';
import { ApiQualityService } from './api-quality.service.js';
import { ApiService } from './apis.service.js';

export interface ApiRouteDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
  settings: SettingsService;
  /** Time and size limits of imports from a URL (tests shorten them). */
  importLimits?: ImportLimits;
}

/** The services of the API features, built once per app. */
export function createApiServices(deps: Omit<ApiRouteDeps, 'guards'>) {
  const { ctx, permissions, audit, settings } = deps;
  const apis = new ApiService({ db: ctx.db, bus: ctx.bus, audit, permissions, settings, now: ctx.now });
  return {
    apis,
    lifecycle: new ApiLifecycleService({ db: ctx.db, bus: ctx.bus, audit, apis, now: ctx.now }),
    quality: new ApiQualityService({ db: ctx.db, settings, apis }),
    members: new ApiMembersService({ db: ctx.db, apis, audit, permissions, now: ctx.now }),
    metadata: new ApiMetadataService({ db: ctx.db, apis, audit, now: ctx.now }),
    imports: new ApiImportService({
      db: ctx.db,
      apis,
      audit,
      now: ctx.now,
      ...(deps.importLimits ? { limits: deps.importLimits } : {}),
      outbound: createOutboundPolicy(ctx.options.outbound),
      log: ctx.log,
    }),
  };
}
export type ApiServices = ReturnType<typeof createApiServices>;

export const ApiParams = z.object({ api: z.string().min(1) });

const csv = (values: readonly string[], field: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      const list = (text ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = list.find(
        (v) => !values.includes(v.toUpperCase()) && !values.includes(v.toLowerCase()),
      );
      if (unknown !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown ${field} [${unknown}], expected one of ${values.join(', ')}`,
        });
        return z.NEVER;
      }
      return list;
    });

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

/** `POST apis/{id}/rollback`: the payload of an earlier PUBLISH_API event (id and instants ignored). */
const RollbackBody = z.object({
  description: z.string().nullable().optional(),
  visibility: ApiVisibility.optional(),
  definition: ApiDefinition.extend({ id: z.string().optional(), name: ApiName, version: ApiVersion }),
});

const ExportQuery = z.object({
  exclude: csv(API_EXPORT_FIELDS, 'field'),
  version: z
    .enum(['current', 'default', '1.20', '1.15', '1.16', '1.15-1.16'])
    .default('current')
    .transform((v): ApiExportVersion =>
      v === 'current' || v === 'default' ? 'current' : v === '1.20' ? '1.20' : '1.15',
    ),
});

const READ_DEFINITION = parsePermission('api-definition-r');

/**
 * The API calls of console-apis.md section 7 (list, search, creation, import, export, general settings,
 * lifecycle, deployment, events, quality, picture) and the portal's catalogue calls.
 */
export function apisRoutes(
  app: FastifyInstance,
  deps: ApiRouteDeps,
  services = createApiServices(deps),
): void {
  const { guards, permissions } = deps;
  const { apis, lifecycle, quality, imports } = services;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const prefix = app.prefix;

  const pictureUrl =
    (request: FastifyRequest): PictureUrl =>
    (id, version) =>
      `${request.protocol}://${request.host}${prefix}/apis/${encodeURIComponent(id)}/picture?v=${version}`;

  const fullJson = async (request: FastifyRequest, row: ApiRow) => {
    const owner = await apis.primaryOwner(row.id);
    return toApiJson(row, owner ? toOwnerJson(owner) : null, pictureUrl(request));
  };

  /**
   * Readers of an API: holders of api-definition-r see it whole; anybody sees a PUBLIC API without its
   * backend details; others get 401 (anonymous) or 403.
   */
  const readable = async (request: FastifyRequest, id: string): Promise<{ row: ApiRow; full: boolean }> => {
    const row = await apis.get(id);
    if (request.user && (await permissions.has(request.user.id, READ_DEFINITION, id)))
      return { row, full: true };
    if (row.visibility === 'PUBLIC') return { row, full: false };
    if (!request.user) throw unauthenticated();
    throw forbidden('api-definition-r');
  };

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

  /** The body of an import call: the options of the dialogs, or the definition itself. */
  const importSource = (body: unknown): ImportSource => {
    if (typeof body === 'string')
      return { request: ApiImportRequest.parse({ type: 'INLINE', payload: body }) };
    const object = body as Record<string, unknown>;
    if (typeof object.payload === 'string' || typeof object.type === 'string') {
      const parsed = ApiImportRequest.safeParse(object);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw invalidField(issue.path.join('.') || 'payload', issue.message);
      }
      return { request: parsed.data };
    }
    return { document: object };
  };
  const ImportBody = z.union([z.string().min(1), z.record(z.string(), z.unknown())]);
  // Files up to the import limit fit in the body; the import then refuses a larger file naming the limit.
  const bodyLimit = importBodyLimit(deps.importLimits ?? DEFAULT_IMPORT_LIMITS);

  r.post(
    '/apis/import',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Import an API: our export, a Gravitee 1.x definition, or a Swagger/OpenAPI file',
        body: ImportBody,
      },
      bodyLimit,
      preHandler: guards.require('management-api-c'),
    },
    async (request, reply) => {
      const row = await imports.importNew(currentUser(request), importSource(request.body));
      sendEtag(reply, apiEtag(row));
      // 200 as Gravitee 1.x answers `apis/import` (its `import/swagger` answers 201).
      return reply.code(200).send(await fullJson(request, row));
    },
  );

  r.post(
    '/apis/import/swagger',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Create an API from a Swagger 2.0 or OpenAPI 3 file',
        body: ImportBody,
      },
      bodyLimit,
      preHandler: guards.require('management-api-c'),
    },
    async (request, reply) => {
      const row = await imports.importNew(currentUser(request), importSource(request.body), true);
      sendEtag(reply, apiEtag(row));
      return reply.code(201).send(await fullJson(request, row));
    },
  );

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
      if (full) return fullJson(request, row);
      const owner = await apis.primaryOwner(row.id);
      const manageable = await apis.isManageable(request.user, row.id);
      return {
        ...toPublicApiJson(row, owner ? toOwnerJson(owner) : null, pictureUrl(request)),
        manageable,
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

  r.get(
    '/apis/:api/export',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Export the API as a JSON file, in the current shape or an older one',
        params: ApiParams,
        querystring: ExportQuery,
      },
      preHandler: guards.require('api-definition-r'),
    },
    async (request, reply) => {
      const source = await loadExportSource(deps.ctx.db, apis, request.params.api);
      const exported = buildExport(
        source,
        request.query.version,
        await exportExclusions(permissions, currentUser(request).id, source.row.id, request.query.exclude),
      );
      return reply
        .header('Content-Type', 'application/json; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${exportFileName(source.row.name, source.row.version)}"`,
        )
        .send(JSON.stringify(exported, null, 2));
    },
  );

  r.post(
    '/apis/:api/import',
    {
      schema: {
        tags: ['APIs'],
        summary: 'Update the API from a definition or a Swagger/OpenAPI file (it keeps its id)',
        params: ApiParams,
        body: ImportBody,
      },
      bodyLimit,
      preHandler: guards.require('api-definition-u'),
    },
    async (request, reply) => {
      const row = await imports.importOver(
        currentUser(request),
        request.params.api,
        importSource(request.body),
      );
      sendEtag(reply, apiEtag(row));
      return fullJson(request, row);
    },
  );

  apiMembersRoutes(app, guards, services.members);
  apiMetadataRoutes(app, guards, services.metadata);
}
