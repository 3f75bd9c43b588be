import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findAuditEventNames } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { requireUser } from '../../http/auth.js';
import { searchAuditPage } from './audit.query.js';

const epochMillis = z.coerce.number().int().min(0);

const AuditQueryString = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(10),
    event: z.string().min(1).optional(),
    api: z.string().min(1).optional(),
    application: z.string().min(1).optional(),
    mgmt: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
    from: epochMillis.optional(),
    to: epochMillis.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'the start date may not be after the end date',
    path: ['from'],
  });

/** GET audit, GET audit/events, GET apis/{api}/audit. */
export function auditRoutes(app: FastifyInstance, ctx: AppContext, guards: PermissionGuards): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/audit',
    {
      schema: { tags: ['Audit'], summary: 'Search the audit trail', querystring: AuditQueryString },
      preHandler: guards.require('management-audit-r'),
    },
    async (request) => searchAuditPage(ctx.db, request.query),
  );

  r.get(
    '/audit/events',
    {
      schema: { tags: ['Audit'], summary: 'The audit event names' },
      preHandler: requireUser,
    },
    async () => findAuditEventNames(ctx.db),
  );

  r.get(
    '/apis/:api/audit',
    {
      schema: {
        tags: ['Audit'],
        summary: "Search an API's audit trail",
        params: z.object({ api: z.string() }),
        querystring: AuditQueryString,
      },
      preHandler: guards.require('api-audit-r'),
    },
    async (request) =>
      searchAuditPage(ctx.db, {
        ...request.query,
        api: request.params.api,
        application: undefined,
        mgmt: undefined,
      }),
  );
}
