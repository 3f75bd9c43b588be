import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '@portico/model';
import { findApiById, findApplicationById } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { AnalyticsQuery } from './analytics.params.js';
import type { AnalyticsTarget } from './analytics.service.js';
import { AnalyticsService } from './analytics.service.js';
import { LogsService, logsAsCsv } from './logs.service.js';
import { platformEventsRoutes } from './platform-events.routes.js';

export interface AnalyticsDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  settings: SettingsService;
  /** Records LOG_READ when an API's log is read with `logging.audit.enabled` on. */
  audit?: AuditService;
}

/** Logs query string (Gravitee's LogsParam); `q` is accepted for `query`. */
const LogsQueryString = z
  .object({
    from: z.coerce.number().int().min(0),
    to: z.coerce.number().int().min(0),
    query: z.string().max(4000).optional(),
    q: z.string().max(4000).optional(),
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(10_000).default(20),
    field: z.string().max(200).default('-@timestamp'),
    order: z.enum(['true', 'false']).optional(),
  })
  .refine((q) => q.from < q.to, { message: 'from must be before to', path: ['from'] });
type LogsQueryString = z.infer<typeof LogsQueryString>;

const toLogsQuery = (q: LogsQueryString) => ({
  from: q.from,
  to: q.to,
  query: q.query ?? q.q,
  page: q.page,
  size: q.size,
  field: q.field,
  order: q.order === undefined ? undefined : q.order === 'true',
});

/** A file name part without characters that break a Content-Disposition header. */
const fileSafe = (name: string) => name.replace(/[^\w.-]+/g, '_');

/**
 * Analytics (`apis/{id}/analytics`, `applications/{id}/analytics`, `platform/analytics`) and request
 * logs (`{apis|applications}/{id}/logs`, `logs/export`, `logs/{logId}`): one service per concern, the
 * scope as a parameter.
 */
export function analyticsRoutes(app: FastifyInstance, deps: AnalyticsDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx, guards, permissions, settings, audit } = deps;
  const analytics = new AnalyticsService(ctx.db, ctx.requests);
  const logs = new LogsService(ctx.db, ctx.requests);
  const tags = ['Analytics'];
  platformEventsRoutes(app, deps);

  r.get(
    '/apis/:api/analytics',
    {
      schema: {
        tags,
        summary: 'Analytics of an API',
        params: z.object({ api: z.string() }),
        querystring: AnalyticsQuery,
      },
      preHandler: guards.require('api-analytics-r'),
    },
    async (request) => analytics.execute({ apiId: request.params.api }, request.query),
  );

  r.get(
    '/applications/:application/analytics',
    {
      schema: {
        tags,
        summary: 'Analytics of an application',
        params: z.object({ application: z.string() }),
        querystring: AnalyticsQuery,
      },
      preHandler: guards.require('application-analytics-r'),
    },
    async (request) => analytics.execute({ applicationId: request.params.application }, request.query),
  );

  r.get(
    '/platform/analytics',
    {
      schema: { tags, summary: 'Analytics of the APIs the user may see', querystring: AnalyticsQuery },
      preHandler: guards.require('management-platform-r'),
    },
    async (request) => {
      const apiIds = await permissions.apisWith(currentUser(request).id, 'ANALYTICS', 'R');
      return analytics.execute({ apiIds }, request.query);
    },
  );

  for (const scope of ['api', 'application'] as const) {
    const base = scope === 'api' ? '/apis/:api' : '/applications/:application';
    const read = guards.require(scope === 'api' ? 'api-log-r' : 'application-log-r');
    const params = scope === 'api' ? z.object({ api: z.string() }) : z.object({ application: z.string() });
    const targetOf = (p: Record<string, string>): AnalyticsTarget =>
      scope === 'api' ? { apiId: p.api! } : { applicationId: p.application! };

    r.get(
      `${base}/logs`,
      {
        schema: { tags, summary: `Request logs of an ${scope}`, params, querystring: LogsQueryString },
        preHandler: read,
      },
      async (request) => logs.search(targetOf(request.params), toLogsQuery(request.query)),
    );

    r.get(
      `${base}/logs/export`,
      {
        schema: { tags, summary: `Request logs of an ${scope} as CSV`, params, querystring: LogsQueryString },
        preHandler: read,
      },
      async (request, reply) => {
        const target = targetOf(request.params);
        const page = await logs.search(target, toLogsQuery(request.query));
        const id = 'apiId' in target ? target.apiId : (target as { applicationId: string }).applicationId;
        const owner = scope === 'api' ? await findApiById(ctx.db, id) : await findApplicationById(ctx.db, id);
        if (!owner) throw notFound(scope === 'api' ? 'Api' : 'Application', id);
        const userDisplayed = (await settings.value<boolean>('logging.user.displayed')) === true;
        return reply
          .header('Content-Type', 'text/plain; charset=utf-8')
          .header(
            'Content-Disposition',
            `attachment; filename="logs-${fileSafe(owner.name)}-${ctx.now()}.csv"`,
          )
          .send(logsAsCsv(page, scope, userDisplayed));
      },
    );

    r.get(
      `${base}/logs/:log`,
      {
        schema: {
          tags,
          summary: `One request log of an ${scope}, with its headers and bodies`,
          params: params.extend({ log: z.string() }),
          querystring: z.object({ timestamp: z.coerce.number().int().optional() }),
        },
        preHandler: read,
      },
      async (request) => {
        const target = targetOf(request.params);
        const log = await logs.detail(target, request.params.log);
        // Reading an API's log is audited with the audit of the logging consultation on, as Gravitee 1.x did.
        if ('apiId' in target && audit && (await settings.value<boolean>('logging.audit.enabled')) === true) {
          await audit.record(ctx.db, {
            referenceType: 'API',
            referenceId: target.apiId,
            userId: currentUser(request).id,
            event: 'LOG_READ',
            properties: { REQUEST_ID: log.id },
          });
        }
        return log;
      },
    );
  }
}
