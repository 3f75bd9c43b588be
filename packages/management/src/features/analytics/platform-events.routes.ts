import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findReferenceNames, searchEvents } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { PermissionService } from '../permissions/permissions.service.js';

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s.toLowerCase() !== 'all');

const EventsQuery = z
  .object({
    type: z.string().max(1000).optional(),
    api_ids: z.string().max(20_000).optional(),
    from: z.coerce.number().int().min(0).optional(),
    to: z.coerce.number().int().min(0).optional(),
    page: z.coerce.number().int().min(0).default(0),
    size: z.coerce.number().int().min(1).max(1000).default(10),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'the start date may not be after the end date',
    path: ['from'],
  });

/**
 * `GET platform/events` (the platform dashboard's events table): events of the APIs the user may see
 * (all for an administrator; `api_ids` narrows them), newest first, without their payload, each API
 * event with `api_name` and `api_version` in its properties, as Gravitee 1.x pages them.
 */
export function platformEventsRoutes(
  app: FastifyInstance,
  deps: { ctx: AppContext; guards: PermissionGuards; permissions: PermissionService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/platform/events',
    {
      schema: {
        tags: ['Analytics'],
        summary: 'Events of the APIs the user may see',
        querystring: EventsQuery,
      },
      preHandler: deps.guards.require('management-platform-r'),
    },
    async (request) => {
      const q = request.query;
      const visible = await deps.permissions.apisWith(currentUser(request).id, 'ANALYTICS', 'R');
      const asked = list(q.api_ids);
      const apiIds =
        visible === 'all'
          ? asked.length > 0
            ? asked
            : undefined
          : asked.length > 0
            ? asked.filter((id) => visible.includes(id))
            : visible;
      const { rows, total } = await searchEvents(deps.ctx.db, {
        ...{ types: list(q.type).map((t) => t.toUpperCase()), apiIds, from: q.from, to: q.to },
        ...{ offset: q.page * q.size, limit: q.size },
      });
      const apis = await findReferenceNames(
        deps.ctx.db,
        'api',
        rows.map((row) => row.api_id).filter((id): id is string => id !== null),
      );
      const content = rows.map((row) => {
        const properties = JSON.parse(row.properties || '{}') as Record<string, string>;
        const api = row.api_id ? apis.get(row.api_id) : undefined;
        if (api) Object.assign(properties, { api_name: api.name, api_version: api.version ?? '' });
        return {
          ...{ id: row.id, type: row.type, created_at: row.created_at, updated_at: row.updated_at },
          ...{ payload: null, properties, user: row.user_id },
        };
      });
      return { content, pageNumber: q.page, pageElements: content.length, totalElements: total };
    },
  );
}
