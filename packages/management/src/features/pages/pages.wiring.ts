import type { FastifyInstance } from 'fastify';
import { createOutboundPolicy } from '@portico/outbound';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { SettingsService } from '../settings/settings.service.js';
import { SourceFetch } from './fetchers/source-fetch.js';
import { mediaRoutes } from './media/media.routes.js';
import { pageFetchJob } from './page-fetch.job.js';
import { API_PAGES, PORTAL_PAGES } from './pages.access.js';
import { PagesFetchService } from './pages-fetch.service.js';
import { pagesRoutes } from './pages.routes.js';
import { PagesService } from './pages.service.js';

export interface PagesFeatureDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
  settings: SettingsService;
  scheduler: Scheduler;
}

/** Documentation pages of APIs and of the portal, their fetchers and scheduled fetches, and media. */
export function pagesFeature(app: FastifyInstance, deps: PagesFeatureDeps): void {
  const { ctx } = deps;
  const source = new SourceFetch({ policy: createOutboundPolicy(ctx.options.outbound), log: ctx.log });
  const common = {
    db: ctx.db,
    audit: deps.audit,
    permissions: deps.permissions,
    fetch: source,
    now: ctx.now,
  };
  const apiPages = new PagesService(common, API_PAGES);
  const portalPages = new PagesService(common, PORTAL_PAGES);
  const api = { service: apiPages, fetch: new PagesFetchService(ctx.db, apiPages, source, ctx.now) };
  const portal = { service: portalPages, fetch: new PagesFetchService(ctx.db, portalPages, source, ctx.now) };
  pagesRoutes(app, deps.guards, { api, portal });
  mediaRoutes(app, { ctx, guards: deps.guards, permissions: deps.permissions, settings: deps.settings });
  deps.scheduler.add(
    pageFetchJob({
      db: ctx.db,
      source,
      fetchers: { API: api.fetch, ENVIRONMENT: portal.fetch },
      now: ctx.now,
      log: ctx.log,
    }),
  );
}
