import type { FastifyInstance } from 'fastify';
import { createOutboundPolicy } from '@portico/outbound';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import { dictionariesRoutes } from './dictionaries.routes.js';
import { DictionaryService } from './dictionaries.service.js';
import { dictionaryPollJob } from './dictionary-poll.job.js';

export interface DictionaryFeatureDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
  scheduler: Scheduler;
}

/** Dictionaries: the routes, and the scheduler's job that polls dynamic dictionaries' providers. */
export function dictionaryFeature(app: FastifyInstance, deps: DictionaryFeatureDeps): DictionaryService {
  const { ctx } = deps;
  const dictionaries = new DictionaryService({ db: ctx.db, bus: ctx.bus, audit: deps.audit, now: ctx.now });
  dictionariesRoutes(app, { guards: deps.guards, permissions: deps.permissions, dictionaries });
  deps.scheduler.add(
    dictionaryPollJob({
      db: ctx.db,
      dictionaries,
      policy: createOutboundPolicy(ctx.options.outbound),
      now: ctx.now,
      log: ctx.log,
    }),
  );
  return dictionaries;
}
