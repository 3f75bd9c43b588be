import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { ApiService } from '../apis/apis.service.js';
import { ApplicationMembersService } from '../applications/application-members.service.js';
import { applicationsRoutes } from '../applications/applications.routes.js';
import { ApplicationService } from '../applications/applications.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { MailService } from '../mail/mail.service.js';
import type { NotificationService } from '../notifications/notifications.service.js';
import type { NotificationDispatcher } from '../notification-settings/notification-dispatch.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { plansRoutes } from '../plans/plans.routes.js';
import { PlanService } from '../plans/plans.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ApplicationRegistrar } from '../client-registration/application-registrar.js';
import { ApiKeyService } from './api-keys.service.js';
import { SubscriptionNotices } from './subscription-notices.js';
import { subscriptionKeysRoutes } from './subscription-keys.routes.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import { SubscriptionService } from './subscriptions.service.js';

export interface SubscriptionFeatureDeps {
  ctx: AppContext;
  permissions: PermissionService;
  audit: AuditService;
  settings: SettingsService;
  mail: MailService;
  notifications: NotificationService;
  /** Routes subscription and key events through the notification settings. */
  hooks?: NotificationDispatcher;
  /** Registers OAuth clients of applications at the client registration provider. */
  registrar?: ApplicationRegistrar;
}

/** The services of plans, subscriptions, API keys and applications, built once per app. */
export function createSubscriptionServices(deps: SubscriptionFeatureDeps) {
  const { ctx, permissions, audit, settings, mail, notifications } = deps;
  const db = ctx.db;
  const now = ctx.now;
  const apis = new ApiService({ db, bus: ctx.bus, audit, permissions, settings, now });
  const notices = new SubscriptionNotices(notifications, permissions, deps.hooks);
  const keys = new ApiKeyService({ db, bus: ctx.bus, audit, notices, mail, log: ctx.log, now });
  const subscriptions = new SubscriptionService({ db, audit, keys, notices, now });
  const plans = new PlanService({ db, apis, audit, subscriptions, permissions, now });
  const applications = new ApplicationService({
    db,
    audit,
    permissions,
    settings,
    subscriptions,
    now,
    registrar: deps.registrar,
  });
  const applicationMembers = new ApplicationMembersService({ db, applications, audit, permissions, now });
  return { apis, notices, keys, subscriptions, plans, applications, applicationMembers };
}
export type SubscriptionServices = ReturnType<typeof createSubscriptionServices>;

/**
 * Registers the calls of plans, subscriptions, keys and applications (the hourly notice of keys about
 * to expire is a scheduled job: expiring-keys.job.ts).
 */
export function subscriptionFeatureRoutes(
  app: FastifyInstance,
  deps: SubscriptionFeatureDeps & { guards: PermissionGuards },
  services = createSubscriptionServices(deps),
): SubscriptionServices {
  const { ctx, guards } = deps;
  plansRoutes(app, { guards, plans: services.plans });
  subscriptionsRoutes(app, {
    ctx,
    guards,
    apis: services.apis,
    plans: services.plans,
    subscriptions: services.subscriptions,
    keys: services.keys,
  });
  subscriptionKeysRoutes(app, {
    ctx,
    permissions: deps.permissions,
    subscriptions: services.subscriptions,
    keys: services.keys,
  });
  applicationsRoutes(app, {
    guards,
    applications: services.applications,
    members: services.applicationMembers,
  });
  return services;
}
