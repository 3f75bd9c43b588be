import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '@portico/model';
import type { InstanceRow } from '@portico/storage';
import { findInstanceById, findInstances } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';

/** A gateway that missed this many heartbeats (5 s each) is taken as stopped: it died without saying so. */
const LOST_AFTER_MS = 3 * 5000 + 2000;

function toInstanceJson(row: InstanceRow, now: number) {
  const lost = row.state === 'STARTED' && now - row.last_heartbeat_at > LOST_AFTER_MS;
  return {
    id: row.id,
    event: row.id,
    hostname: row.hostname,
    ip: row.ip,
    port: String(row.port),
    version: row.version,
    state: lost || row.state === 'STOPPED' ? 'stopped' : 'started',
    tags: JSON.parse(row.tags) as string[],
    tenant: row.tenant,
    started_at: row.started_at,
    last_heartbeat_at: row.last_heartbeat_at,
    stopped_at: row.stopped_at ?? (lost ? row.last_heartbeat_at : null),
    operating_system_name: row.operating_system_name,
    dropped_reports: row.dropped_reports,
    // What the gateway serves: the latest lifecycle event sequence and a digest, equal on gateways in step.
    sync_seq: row.sync_seq,
    sync_digest: row.sync_digest,
  };
}

/** The gateway instances screens: GET instances, instances/{id}, instances/{id}/monitoring/{event}. */
export function instancesRoutes(app: FastifyInstance, ctx: AppContext, guards: PermissionGuards): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = guards.require('management-instance-r');

  r.get(
    '/instances',
    {
      schema: {
        tags: ['Instances'],
        summary: 'Gateway instances: running ones, or the history with includeStopped',
        querystring: z
          .object({
            includeStopped: z.enum(['true', 'false']).default('false'),
            from: z.coerce.number().int().min(0).optional(),
            to: z.coerce.number().int().min(0).optional(),
            page: z.coerce.number().int().min(0).default(0),
            size: z.coerce.number().int().min(1).max(1000).default(100),
          })
          .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
            message: 'the start date may not be after the end date',
            path: ['from'],
          }),
      },
      preHandler: read,
    },
    async (request) => {
      const q = request.query;
      const now = ctx.now();
      const includeStopped = q.includeStopped === 'true';
      // Live mode lists only the instances still beating; the history, those alive within [from, to].
      const { rows, total } = await findInstances(ctx.db, {
        includeStopped,
        beatingSince: includeStopped ? undefined : now - LOST_AFTER_MS,
        from: q.from,
        to: q.to,
        offset: q.page * q.size,
        limit: q.size,
      });
      const content = rows.map((row) => toInstanceJson(row, now));
      return { content, totalElements: total, pageNumber: q.page, pageElements: content.length };
    },
  );

  r.get(
    '/instances/:instance',
    {
      schema: {
        tags: ['Instances'],
        summary: 'One gateway instance, with plugins and system properties',
        params: z.object({ instance: z.string() }),
      },
      preHandler: read,
    },
    async (request) => {
      const row = await findInstanceById(ctx.db, request.params.instance);
      if (!row) throw notFound('Instance', request.params.instance);
      return {
        ...toInstanceJson(row, ctx.now()),
        plugins: JSON.parse(row.plugins) as unknown[],
        systemProperties: JSON.parse(row.system_properties) as Record<string, string>,
      };
    },
  );

  r.get(
    '/instances/:instance/monitoring/:event',
    {
      schema: {
        tags: ['Instances'],
        summary: 'The latest monitoring data of a gateway (CPU, memory, heap spaces, GC, threads, ...)',
        params: z.object({ instance: z.string(), event: z.string() }),
      },
      preHandler: read,
    },
    async (request) => {
      const row = await findInstanceById(ctx.db, request.params.instance);
      if (!row || row.id !== request.params.event) throw notFound('Instance', request.params.instance);
      return { ...(JSON.parse(row.monitoring ?? '{}') as object), gateway: row.id, hostname: row.hostname };
    },
  );
}
