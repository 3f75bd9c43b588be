import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_EXPORT_FIELDS, ApiImportRequest, invalidField } from '@portico/model';
import type { ApiExportVersion } from '@portico/model';
import { currentUser } from '../../http/auth.js';
import { sendEtag } from '../../http/etag.js';
import type { ImportSource } from './api-import.source.js';
import { DEFAULT_IMPORT_LIMITS, importBodyLimit } from './api-import.source.js';
import { buildExport, exportExclusions, exportFileName, loadExportSource } from './apis.export.js';
import { apiEtag } from './apis.mapper.js';
import type { ApiRouteDeps, ApiRouteKit } from './apis.routes.support.js';
import { ApiParams, csv } from './apis.routes.support.js';

const ExportQuery = z.object({
  exclude: csv(API_EXPORT_FIELDS, 'field'),
  version: z
    .enum(['current', 'default', '1.20', '1.15', '1.16', '1.15-1.16'])
    .default('current')
    .transform((v): ApiExportVersion =>
      v === 'current' || v === 'default' ? 'current' : v === '1.20' ? '1.20' : '1.15',
    ),
});

/** The body of an import call: the options of the dialogs, or the definition itself. */
const importSource = (body: unknown): ImportSource => {
  if (typeof body === 'string') return { request: ApiImportRequest.parse({ type: 'INLINE', payload: body }) };
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
const bodyLimitOf = (deps: ApiRouteDeps) => importBodyLimit(deps.importLimits ?? DEFAULT_IMPORT_LIMITS);

/** The creation of an API by import (`apis/import`, `apis/import/swagger`). */
export function apiImportRoutes(app: FastifyInstance, kit: ApiRouteKit): void {
  const { guards } = kit.deps;
  const { imports } = kit.services;
  const { fullJson } = kit;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const bodyLimit = bodyLimitOf(kit.deps);

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
}

/** The export of an API and its update by import (`apis/{id}/export`, `apis/{id}/import`). */
export function apiExportRoutes(app: FastifyInstance, kit: ApiRouteKit): void {
  const { guards, permissions } = kit.deps;
  const { apis, imports } = kit.services;
  const { fullJson } = kit;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const bodyLimit = bodyLimitOf(kit.deps);

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
      const source = await loadExportSource(kit.deps.ctx.db, apis, request.params.api);
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
}
