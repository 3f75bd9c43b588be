import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { ValidationError, forbidden } from '@portico/model';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import type { PermissionGuards } from '../../../http/auth.js';
import type { PermissionService } from '../../permissions/permissions.service.js';
import type { SettingsService } from '../../settings/settings.service.js';
import { API_PAGES, PORTAL_REFERENCE, pageReader } from '../pages.access.js';
import { MEDIA_HARD_LIMIT, MediaService, mediaDisabled, mediaLimit, mediaTooBig } from './media.service.js';

export interface MediaRoutesDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  settings: SettingsService;
}

/** What a served image may do: nothing but be shown (no script, no sniffing into HTML). */
function sendImage(reply: FastifyReply, row: { content_type: string; data: Buffer }) {
  return reply
    .header('Content-Type', row.content_type)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Content-Disposition', 'inline')
    .header('Cache-Control', 'public, max-age=31536000, immutable')
    .send(Buffer.from(row.data));
}

/**
 * `POST apis/{api}/media/upload` and `POST portal/media/upload` (multipart, field `file`): stores an
 * image within the portal's media limit and answers its path; `GET .../media/{hash}` serves it.
 */
export function mediaRoutes(app: FastifyInstance, deps: MediaRoutesDeps): void {
  const media = new MediaService(deps.ctx.db, deps.ctx.now);
  void app.register(async (scoped) => {
    await scoped.register(multipart, {
      limits: { fileSize: MEDIA_HARD_LIMIT, files: 1, fields: 10, parts: 20, fieldSize: 1024 },
    });
    const r = scoped.withTypeProvider<ZodTypeProvider>();

    const upload = async (request: FastifyRequest, referenceType: string, referenceId: string) => {
      const { enabled, max } = await mediaLimit(deps.settings);
      if (!enabled) throw mediaDisabled();
      if (!request.isMultipart())
        throw new ValidationError('file', 'A multipart body with a file is required');
      const file = await request.file({ limits: { fileSize: max } });
      if (!file || file.fieldname !== 'file') throw new ValidationError('file', 'A file is required');
      let data: Buffer;
      try {
        data = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw mediaTooBig(max);
        throw error;
      }
      const hash = await media.store(referenceType, referenceId, file.filename, data);
      // The path under which it is read: the upload's own path (with the /management prefix) ending in the hash.
      return `${request.url.split('?')[0]!.replace(/\/upload$/, '')}/${hash}`;
    };

    const ApiParams = z.object({ api: z.string().min(1).max(64) });
    r.post(
      '/apis/:api/media/upload',
      {
        schema: {
          tags: ['API documentation'],
          summary: 'Upload an image (multipart field file); answers its path',
          params: ApiParams,
        },
        preHandler: deps.guards.requireAny('api-documentation-c', 'api-documentation-u'),
      },
      async (request, reply) => {
        const path = await upload(request, 'API', request.params.api);
        return reply.code(201).type('text/plain; charset=utf-8').send(path);
      },
    );
    r.get(
      '/apis/:api/media/:hash',
      {
        schema: {
          tags: ['API documentation'],
          summary: 'An uploaded image (for those who may read the API documentation)',
          params: ApiParams.extend({ hash: z.string().max(128) }),
        },
      },
      async (request, reply) => {
        const reader = await pageReader(
          deps.ctx.db,
          deps.permissions,
          API_PAGES,
          request.params.api,
          request.user,
        );
        if (reader === 'forbidden') throw forbidden('api-documentation-r');
        return sendImage(reply, await media.read('API', request.params.api, request.params.hash));
      },
    );
    r.post(
      '/portal/media/upload',
      {
        schema: { tags: ['Portal documentation'], summary: 'Upload an image for the portal documentation' },
        preHandler: deps.guards.requireAny('portal-documentation-c', 'portal-documentation-u'),
      },
      async (request, reply) => {
        const path = await upload(request, 'ENVIRONMENT', PORTAL_REFERENCE);
        return reply.code(201).type('text/plain; charset=utf-8').send(path);
      },
    );
    r.get(
      '/portal/media/:hash',
      {
        schema: {
          tags: ['Portal documentation'],
          summary: 'An uploaded image of the portal documentation',
          params: z.object({ hash: z.string().max(128) }),
        },
      },
      async (request, reply) =>
        sendImage(reply, await media.read('ENVIRONMENT', PORTAL_REFERENCE, request.params.hash)),
    );
  });
}
