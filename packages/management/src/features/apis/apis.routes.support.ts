import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forbidden, parsePermission, unauthenticated } from '@portico/model';
import type { ApiRow } from '@portico/storage';
import { createOutboundPolicy } from '@portico/outbound';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ImportLimits } from './api-import.source.js';
import { mayViewApi } from './api-list.js';
import { ApiImportService } from './api-import.service.js';
import { ApiMembersService } from './api-members.service.js';
import { ApiMetadataService } from './api-metadata.service.js';
import type { PictureUrl } from './apis.mapper.js';
import { toApiJson, toOwnerJson } from './apis.mapper.js';
import { ApiLifecycleService } from './api-lifecycle.service.js';
import { ApiQualityService } from './api-quality.service.js';
import { ApiService } from './apis.service.js';

export interface ApiRouteDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  audit: AuditService;
  settings: SettingsService;
  /** Time and size limits of imports from a URL (tests shorten them). */
  importLimits?: ImportLimits;
}

/** The services of the API features, built once per app. */
export function createApiServices(deps: Omit<ApiRouteDeps, 'guards'>) {
  const { ctx, permissions, audit, settings } = deps;
  const apis = new ApiService({ db: ctx.db, bus: ctx.bus, audit, permissions, settings, now: ctx.now });
  return {
    apis,
    lifecycle: new ApiLifecycleService({ db: ctx.db, bus: ctx.bus, audit, apis, now: ctx.now }),
    quality: new ApiQualityService({ db: ctx.db, settings, apis }),
    members: new ApiMembersService({ db: ctx.db, apis, audit, permissions, now: ctx.now }),
    metadata: new ApiMetadataService({ db: ctx.db, apis, audit, now: ctx.now }),
    imports: new ApiImportService({
      db: ctx.db,
      apis,
      audit,
      now: ctx.now,
      ...(deps.importLimits ? { limits: deps.importLimits } : {}),
      outbound: createOutboundPolicy(ctx.options.outbound),
      log: ctx.log,
    }),
  };
}
export type ApiServices = ReturnType<typeof createApiServices>;

export const ApiParams = z.object({ api: z.string().min(1) });

/** A comma-separated query parameter whose values must be among `values` (in either case). */
export const csv = (values: readonly string[], field: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      const list = (text ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = list.find(
        (v) => !values.includes(v.toUpperCase()) && !values.includes(v.toLowerCase()),
      );
      if (unknown !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown ${field} [${unknown}], expected one of ${values.join(', ')}`,
        });
        return z.NEVER;
      }
      return list;
    });

const READ_DEFINITION = parsePermission('api-definition-r');

/** What the API route files share: their dependencies, the services and the helpers writing an API. */
export interface ApiRouteKit {
  deps: ApiRouteDeps;
  services: ApiServices;
  /** The address of an API's picture, as the caller reached us. */
  pictureUrl: (request: FastifyRequest) => PictureUrl;
  /** The API as its managers see it, with its primary owner. */
  fullJson: (request: FastifyRequest, row: ApiRow) => Promise<ReturnType<typeof toApiJson>>;
  /**
   * Readers of an API: holders of api-definition-r see it whole; those who see it in the portal's lists
   * (a published PUBLIC API, or one of their groups) see it without its backend details; others get
   * 401 (anonymous) or 403.
   */
  readable: (request: FastifyRequest, id: string) => Promise<{ row: ApiRow; full: boolean }>;
}

export function apiRouteKit(app: FastifyInstance, deps: ApiRouteDeps, services: ApiServices): ApiRouteKit {
  const { permissions } = deps;
  const { apis } = services;
  const prefix = app.prefix;

  const pictureUrl =
    (request: FastifyRequest): PictureUrl =>
    (id, version) =>
      `${request.protocol}://${request.host}${prefix}/apis/${encodeURIComponent(id)}/picture?v=${version}`;

  const fullJson = async (request: FastifyRequest, row: ApiRow) => {
    const owner = await apis.primaryOwner(row.id);
    return toApiJson(row, owner ? toOwnerJson(owner) : null, pictureUrl(request));
  };

  const readable = async (request: FastifyRequest, id: string): Promise<{ row: ApiRow; full: boolean }> => {
    const row = await apis.get(id);
    if (request.user && (await permissions.has(request.user.id, READ_DEFINITION, id)))
      return { row, full: true };
    if (await mayViewApi({ db: deps.ctx.db, permissions }, request.user, row)) return { row, full: false };
    if (!request.user) throw unauthenticated();
    throw forbidden('api-definition-r');
  };

  return { deps, services, pictureUrl, fullJson, readable };
}
