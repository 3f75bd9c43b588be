import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePermission } from '@portico/model';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import { apiViewerOf } from '../apis/api-list.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { ViewInput, ViewWithCount, ViewsService } from './views.service.js';

export const VIEW_NAME_REQUIRED = 'View name is required.';
export const VIEW_NAME_TOO_LONG = 'The name has to be less than 50 characters long.';

const ViewBody = z.object({
  name: z
    .string({ error: (i) => (i.input === undefined ? VIEW_NAME_REQUIRED : undefined) })
    .trim()
    .min(1, VIEW_NAME_REQUIRED)
    .max(50, VIEW_NAME_TOO_LONG),
  description: z.string().max(4000).nullable().optional(),
  order: z.number().int().min(0).optional(),
  defaultView: z.boolean().optional(),
  hidden: z.boolean().optional(),
  picture: z.string().max(1_500_000).nullable().optional(),
  highlightApi: z.string().nullable().optional(),
});
const ViewUpdateBody = ViewBody.extend({ id: z.string().min(1).optional() });
const ViewsUpdateBody = z.array(ViewUpdateBody.extend({ id: z.string().min(1) })).max(1000);
const ViewParams = z.object({ id: z.string().min(1) });

const READ_VIEWS = parsePermission('portal-view-r');

/** Views of console-applications-and-settings.md 7: `configuration/views` (the portal reads them too). */
export function viewsRoutes(
  app: FastifyInstance,
  views: ViewsService,
  guards: PermissionGuards,
  permissions: PermissionService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const prefix = app.prefix;
  const toJson = (request: FastifyRequest, view: ViewWithCount, withPicture = false) => ({
    id: view.id,
    name: view.name,
    description: view.description,
    order: view.order,
    defaultView: view.default_view === 1,
    hidden: view.hidden === 1,
    highlightApi: view.highlight_api,
    ...(withPicture ? { picture: view.picture } : {}),
    picture_url: view.picture
      ? `${request.protocol}://${request.host}${prefix}/configuration/views/${encodeURIComponent(view.id)}/picture?v=${view.updated_at}`
      : null,
    totalApis: view.total_apis,
    created_at: view.created_at,
    updated_at: view.updated_at,
  });
  const input = (body: z.infer<typeof ViewBody>): ViewInput => body;

  r.get(
    '/configuration/views',
    {
      schema: {
        tags: ['Views'],
        summary: 'The views in their order; hidden ones only with all=true for readers of views',
        querystring: z.object({ all: z.enum(['true', 'false']).optional() }),
      },
    },
    async (request) => {
      const all =
        request.query.all === 'true' &&
        !!request.user &&
        (await permissions.has(request.user.id, READ_VIEWS));
      const viewer = await apiViewerOf({ db: views.db, permissions }, request.user);
      return (await views.list(all, viewer)).map((v) => toJson(request, v));
    },
  );

  r.get(
    '/configuration/views/:id',
    { schema: { tags: ['Views'], summary: "One view ('default': the default view)", params: ViewParams } },
    async (request) => {
      const viewer = await apiViewerOf({ db: views.db, permissions }, request.user);
      return toJson(request, await views.get(request.params.id, viewer), true);
    },
  );

  r.get(
    '/configuration/views/:id/picture',
    { schema: { tags: ['Views'], summary: 'The picture of a view', params: ViewParams } },
    async (request, reply) => {
      const picture = await views.picture(request.params.id);
      if (!picture) return reply.code(204).send();
      return reply
        .header('Content-Type', picture.type)
        .header('Cache-Control', 'max-age=86400')
        .send(picture.body);
    },
  );

  r.post(
    '/configuration/views',
    {
      schema: { tags: ['Views'], summary: 'Create a view', body: ViewBody },
      preHandler: guards.require('portal-view-c'),
    },
    async (request) => toJson(request, await views.create(currentUser(request), input(request.body)), true),
  );

  r.put(
    '/configuration/views',
    {
      schema: { tags: ['Views'], summary: 'Update several views (their order)', body: ViewsUpdateBody },
      preHandler: guards.require('portal-view-u'),
    },
    async (request) =>
      (await views.updateMany(currentUser(request), request.body)).map((v) => toJson(request, v)),
  );

  r.put(
    '/configuration/views/:id',
    {
      schema: { tags: ['Views'], summary: 'Update a view', params: ViewParams, body: ViewUpdateBody },
      preHandler: guards.require('portal-view-u'),
    },
    async (request) =>
      toJson(request, await views.update(currentUser(request), request.params.id, input(request.body)), true),
  );

  r.delete(
    '/configuration/views/:id',
    {
      schema: { tags: ['Views'], summary: "Delete a view (never 'all'); APIs lose it", params: ViewParams },
      preHandler: guards.require('portal-view-d'),
    },
    async (request, reply) => {
      await views.delete(currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
