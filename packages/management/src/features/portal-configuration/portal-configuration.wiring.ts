import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { ApiHeadersService } from '../api-headers/api-headers.service.js';
import { apiHeadersRoutes } from '../api-headers/api-headers.routes.js';
import { ApiService } from '../apis/apis.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { PortalMetadataService } from '../portal-metadata/portal-metadata.service.js';
import { portalMetadataRoutes } from '../portal-metadata/portal-metadata.routes.js';
import type { SettingsService } from '../settings/settings.service.js';
import { TagsService } from '../tags/tags.service.js';
import { tagsRoutes } from '../tags/tags.routes.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { tenantsRoutes } from '../tenants/tenants.routes.js';
import { TopApisService } from '../top-apis/top-apis.service.js';
import { topApisRoutes } from '../top-apis/top-apis.routes.js';
import { ViewsService } from '../views/views.service.js';
import { viewsRoutes } from '../views/views.routes.js';

export interface PortalConfigurationDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
  settings: SettingsService;
}

/**
 * The platform settings of issue 12, part 1: views, tenants, sharding tags and entrypoints, global
 * metadata, top APIs and API portal headers (console-applications-and-settings.md 2.3 and 7).
 */
export function portalConfigurationRoutes(app: FastifyInstance, deps: PortalConfigurationDeps): void {
  const { ctx, guards, permissions, audit, settings } = deps;
  viewsRoutes(app, new ViewsService(ctx.db, audit, ctx.now), guards, permissions);
  tenantsRoutes(app, new TenantsService(ctx.db, audit), guards);
  tagsRoutes(app, new TagsService(ctx.db, audit), guards);
  portalMetadataRoutes(app, new PortalMetadataService(ctx.db, audit, ctx.now), guards);
  topApisRoutes(app, new TopApisService(ctx.db, audit), guards);
  const apis = new ApiService({ db: ctx.db, bus: ctx.bus, audit, permissions, settings, now: ctx.now });
  apiHeadersRoutes(app, {
    headers: new ApiHeadersService(ctx.db, audit, ctx.now),
    apis,
    guards,
    permissions,
  });
}
