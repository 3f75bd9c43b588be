import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NewPlan,
  PLAN_SECURITY_TYPES,
  PLAN_STATUSES,
  PlanSecurity,
  PlanStatus,
  PlanUpdate,
} from '@portico/model';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import { csvOf } from '../../http/query-lists.js';
import { toPlanJson, toPortalPlanJson } from './plans.mapper.js';
import type { PlanService } from './plans.service.js';

const ApiParams = z.object({ api: z.string().min(1) });
const PlanParams = z.object({ api: z.string().min(1), plan: z.string().min(1) });

const ListQuery = z.object({
  status: csvOf(PlanStatus, PLAN_STATUSES, 'status'),
  security: csvOf(PlanSecurity, PLAN_SECURITY_TYPES, 'security type'),
});

export interface PlanRouteDeps {
  guards: PermissionGuards;
  plans: PlanService;
}

/** The plan calls of console-apis.md section 7 and the portal's `GET apis/{id}/plans`. */
export function plansRoutes(app: FastifyInstance, deps: PlanRouteDeps): void {
  const { guards, plans } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/apis/:api/plans',
    {
      schema: {
        tags: ['Plans'],
        summary:
          'The plans of the API in their order (status and security filters are comma lists); ' +
          'without api-plan-r, the published plans as the portal shows them (no paths, security configuration nor excluded groups)',
        params: ApiParams,
        querystring: ListQuery,
      },
    },
    async (request) => {
      const view = await plans.viewOf(request.user, request.params.api);
      const rows = await plans.listVisible(request.user, request.params.api, {
        statuses: request.query.status,
        security: request.query.security,
      });
      return view.all ? rows.map(toPlanJson) : rows.map(toPortalPlanJson);
    },
  );

  r.post(
    '/apis/:api/plans',
    {
      schema: {
        tags: ['Plans'],
        summary: 'Create a plan (STAGING unless PUBLISHED is asked)',
        params: ApiParams,
        body: NewPlan,
      },
      preHandler: guards.require('api-plan-c'),
    },
    async (request, reply) => {
      const plan = await plans.create(currentUser(request), request.params.api, request.body);
      return reply.code(201).send(toPlanJson(plan));
    },
  );

  r.get(
    '/apis/:api/plans/:plan',
    {
      schema: { tags: ['Plans'], summary: 'One plan', params: PlanParams },
      preHandler: guards.require('api-plan-r'),
    },
    async (request) => toPlanJson(await plans.get(request.params.api, request.params.plan)),
  );

  r.put(
    '/apis/:api/plans/:plan',
    {
      schema: {
        tags: ['Plans'],
        summary: 'Save a plan (not its security type nor status); reordering saves each plan with its order',
        params: PlanParams,
        body: PlanUpdate,
      },
      preHandler: guards.require('api-plan-u'),
    },
    async (request) =>
      toPlanJson(
        await plans.update(currentUser(request), request.params.api, request.params.plan, request.body),
      ),
  );

  r.delete(
    '/apis/:api/plans/:plan',
    {
      schema: { tags: ['Plans'], summary: 'Delete a plan without active subscriptions', params: PlanParams },
      preHandler: guards.require('api-plan-d'),
    },
    async (request, reply) => {
      await plans.delete(currentUser(request), request.params.api, request.params.plan);
      return reply.code(204).send();
    },
  );

  const actions = [
    ['_publish', 'Publish a staging plan', (u, a, p) => plans.publish(u, a, p)],
    ['_depreciate', 'Deprecate a published plan', (u, a, p) => plans.deprecate(u, a, p)],
    ['_deprecate', 'Deprecate a published plan', (u, a, p) => plans.deprecate(u, a, p)],
    [
      '_close',
      'Close a plan for good (its subscriptions close, their keys are revoked)',
      (u, a, p) => plans.close(u, a, p),
    ],
  ] as const satisfies readonly [
    string,
    string,
    (user: ReturnType<typeof currentUser>, api: string, plan: string) => unknown,
  ][];
  for (const [action, summary, run] of actions) {
    r.post(
      `/apis/:api/plans/:plan/${action}`,
      {
        schema: { tags: ['Plans'], summary, params: PlanParams, hide: action === '_deprecate' },
        preHandler: guards.require('api-plan-u'),
      },
      async (request) => toPlanJson(await run(currentUser(request), request.params.api, request.params.plan)),
    );
  }
}
