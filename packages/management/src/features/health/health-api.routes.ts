import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { HealthApiService } from './health-api.service.js';

const Params = z.object({ api: z.string() });
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

/**
 * The health calls of an API (console-apis.md 7, Logs and health), each with api-health-r:
 * `health?type=&field=`, `health/average`, `health/logs`, `health/logs/{logId}`.
 */
export function apiHealthRoutes(app: FastifyInstance, ctx: AppContext, guards: PermissionGuards): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const health = new HealthApiService(ctx.db);
  const read = guards.require('api-health-r');
  const tags = ['API health'];

  r.get(
    '/apis/:api/health',
    {
      schema: {
        tags,
        summary: 'Availability or response time per endpoint or gateway over 1m, 1h, 1d, 1w, 1M',
        params: Params,
        querystring: z.object({
          type: z.preprocess(lower, z.enum(['availability', 'response_time'])).default('availability'),
          field: z.preprocess(lower, z.enum(['endpoint', 'gateway'])).default('endpoint'),
        }),
      },
      preHandler: read,
    },
    async (request) => health.metrics(request.params.api, request.query.type, request.query.field),
  );

  r.get(
    '/apis/:api/health/average',
    {
      schema: {
        tags,
        summary: 'Availability or average response time of the checks per interval',
        params: Params,
        querystring: z.object({
          from: z.coerce.number().int().min(0).optional(),
          to: z.coerce.number().int().min(0).optional(),
          interval: z.coerce.number().int().min(1000).max(2_592_000_000).optional(),
          type: z.preprocess(
            (v) => (typeof v === 'string' ? v.toUpperCase() : v),
            z.enum(['AVAILABILITY', 'RESPONSE_TIME']).default('RESPONSE_TIME'),
          ),
        }),
      },
      preHandler: read,
    },
    async (request) => health.average(request.params.api, request.query),
  );

  r.get(
    '/apis/:api/health/logs',
    {
      schema: {
        tags,
        summary: 'Health checks of the API, newest first (transition=true: state changes only)',
        params: Params,
        querystring: z.object({
          page: z.coerce.number().int().min(1).default(1),
          size: z.coerce.number().int().min(1).max(100).default(10),
          query: z.string().max(1000).optional(),
          transition: z.enum(['true', 'false']).optional(),
          from: z.coerce.number().int().min(0).optional(),
          to: z.coerce.number().int().min(0).optional(),
        }),
      },
      preHandler: read,
    },
    async (request) =>
      health.logs(request.params.api, {
        ...request.query,
        transition: request.query.transition === 'true',
      }),
  );

  r.get(
    '/apis/:api/health/logs/:logId',
    {
      schema: {
        tags,
        summary: 'One health check with its request and response',
        params: z.object({ api: z.string(), logId: z.string() }),
      },
      preHandler: read,
    },
    async (request) => health.log(request.params.api, request.params.logId),
  );
}
