import type { FastifyInstance } from 'fastify';
import { createOutboundPolicy } from '@portico/outbound';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { MailService } from '../mail/mail.service.js';
import type { NotificationService } from '../notifications/notifications.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import { auditHooks } from './audit-hooks.js';
import { notificationDeliveriesJob } from './notification-deliveries.job.js';
import { NotificationDispatcher } from './notification-dispatch.js';
import { notificationSettingsRoutes } from './notification-settings.routes.js';
import { NotificationSettingsService } from './notification-settings.service.js';

export interface NotificationSettingsFeatureDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  audit: AuditService;
  permissions: PermissionService;
  mail: MailService;
  notifications: NotificationService;
  scheduler: Scheduler;
}

/**
 * Notification settings of APIs, applications and the platform: their calls, the dispatcher that
 * routes events through them, and the scheduler's job sending the outbox's mails and webhooks.
 */
export function notificationSettingsFeature(
  app: FastifyInstance,
  deps: NotificationSettingsFeatureDeps,
): NotificationDispatcher {
  const { ctx } = deps;
  const settings = new NotificationSettingsService({
    db: ctx.db,
    permissions: deps.permissions,
    now: ctx.now,
  });
  notificationSettingsRoutes(app, { guards: deps.guards, settings });
  deps.scheduler.add(
    notificationDeliveriesJob({
      db: ctx.db,
      mail: deps.mail,
      policy: createOutboundPolicy(ctx.options.outbound),
      now: ctx.now,
      log: ctx.log,
    }),
  );
  const dispatcher = new NotificationDispatcher(deps.notifications, ctx.now);
  deps.audit.observe(auditHooks(dispatcher));
  return dispatcher;
}
