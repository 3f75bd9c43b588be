import { createOutboundPolicy } from '@portico/outbound';
import type { AppContext } from '../../context.js';
import { ApiLifecycleService } from '../apis/api-lifecycle.service.js';
import { ApiService } from '../apis/apis.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { SettingsService } from '../settings/settings.service.js';
import { dynamicPropertiesPollJob } from './dynamic-properties.job.js';
import { DynamicPropertiesUpdater } from './dynamic-properties.updater.js';

export interface DynamicPropertiesFeatureDeps {
  ctx: AppContext;
  audit: AuditService;
  permissions: PermissionService;
  settings: SettingsService;
  scheduler: Scheduler;
}

/** APIs' dynamic properties: the scheduler's job polling each deployed provider. */
export function dynamicPropertiesFeature(deps: DynamicPropertiesFeatureDeps): void {
  const { ctx } = deps;
  const apis = new ApiService({
    db: ctx.db,
    bus: ctx.bus,
    audit: deps.audit,
    permissions: deps.permissions,
    settings: deps.settings,
    now: ctx.now,
  });
  const lifecycle = new ApiLifecycleService({
    db: ctx.db,
    bus: ctx.bus,
    audit: deps.audit,
    apis,
    now: ctx.now,
  });
  const updater = new DynamicPropertiesUpdater({ db: ctx.db, lifecycle, audit: deps.audit, now: ctx.now });
  deps.scheduler.add(
    dynamicPropertiesPollJob({
      db: ctx.db,
      updater,
      policy: createOutboundPolicy(ctx.options.outbound),
      now: ctx.now,
      log: ctx.log,
    }),
  );
}
