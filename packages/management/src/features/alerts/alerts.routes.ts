import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { NotificationDispatcher } from '../notification-settings/notification-dispatch.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import { ALERT_METRICS } from './alert-metrics.js';
import { alertsEvaluationJob } from './alerts-evaluation.job.js';
import type { AlertScope } from './alerts.service.js';
import { AlertsService } from './alerts.service.js';

const AlertBody = z.object({
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  enabled: z.boolean().nullable().optional(),
  type: z.string().nullable().optional(),
  metricType: z.string().nullable().optional(),
  thresholdType: z.string().nullable().optional(),
  threshold: z.union([z.number(), z.string()]).nullable().optional(),
  plan: z.string().nullable().optional(),
});
const Paging = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

interface ScopeRoutes {
  base: string;
  permission: string;
  tag: string;
  scope(params: Record<string, string>): AlertScope;
}

/** The three places alerts live (console-applications-and-settings.md section 7: Alerts). */
const SCOPES: ScopeRoutes[] = [
  {
    base: '/apis/:api/alerts',
    permission: 'api-alert',
    tag: 'API alerts',
    scope: (p) => ({ type: 'API', id: p.api! }),
  },
  {
    base: '/applications/:application/alerts',
    permission: 'application-alert',
    tag: 'Application alerts',
    scope: (p) => ({ type: 'APPLICATION', id: p.application! }),
  },
  {
    base: '/configuration/alerts',
    permission: 'management-alert',
    tag: 'Platform alerts',
    scope: () => ({ type: 'PLATFORM', id: 'DEFAULT' }),
  },
];

/** `alerts/metrics`, the alerts of each scope, their history, and the scheduler's evaluation job. */
export function alertsFeature(
  app: FastifyInstance,
  deps: {
    ctx: AppContext;
    guards: PermissionGuards;
    audit: AuditService;
    hooks: NotificationDispatcher;
    scheduler: Scheduler;
  },
): void {
  const { ctx, guards } = deps;
  const alerts = new AlertsService({ db: ctx.db, audit: deps.audit, now: ctx.now });
  deps.scheduler.add(
    alertsEvaluationJob({ db: ctx.db, requests: ctx.requests, hooks: deps.hooks, now: ctx.now }),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/alerts/metrics',
    {
      schema: { tags: ['Alerts'], summary: 'The metrics an alert may watch, with their threshold types' },
      preHandler: requireUser,
    },
    async () =>
      ALERT_METRICS.map((m) => ({
        key: m.key,
        description: m.description,
        type: m.type.toLowerCase(),
        thresholds: m.thresholds.map((t) => ({
          key: t.toLowerCase(),
          description: t === 'COUNT' ? 'Count' : 'Percent rate',
        })),
      })),
  );
  for (const s of SCOPES) {
    const scope = (p: unknown) => s.scope(p as Record<string, string>);
    const Params = z.record(z.string(), z.string());
    r.get(
      s.base,
      {
        schema: { tags: [s.tag], summary: 'The alerts', params: Params },
        preHandler: guards.require(`${s.permission}-r`),
      },
      async (request) => alerts.list(scope(request.params)),
    );
    r.post(
      s.base,
      {
        schema: { tags: [s.tag], summary: 'Create an alert', params: Params, body: AlertBody },
        preHandler: guards.require(`${s.permission}-c`),
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await alerts.create(currentUser(request).id, scope(request.params), request.body)),
    );
    r.put(
      `${s.base}/:alert`,
      {
        schema: { tags: [s.tag], summary: 'Change an alert', params: Params, body: AlertBody },
        preHandler: guards.requireAny(`${s.permission}-u`, `${s.permission}-c`),
      },
      async (request) =>
        alerts.update(currentUser(request).id, scope(request.params), request.params.alert!, request.body),
    );
    r.delete(
      `${s.base}/:alert`,
      {
        schema: { tags: [s.tag], summary: 'Delete an alert and its history', params: Params },
        preHandler: guards.require(`${s.permission}-d`),
      },
      async (request, reply) => {
        await alerts.remove(currentUser(request).id, scope(request.params), request.params.alert!);
        return reply.code(204).send();
      },
    );
    r.get(
      `${s.base}/:alert/events`,
      {
        schema: {
          tags: [s.tag],
          summary: "The alert's history (triggered, resolved), newest first",
          params: Params,
          querystring: Paging,
        },
        preHandler: guards.require(`${s.permission}-r`),
      },
      async (request) =>
        alerts.history(scope(request.params), request.params.alert!, request.query.page, request.query.size),
    );
  }
}
