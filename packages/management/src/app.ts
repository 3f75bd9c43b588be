import Fastify from 'fastify';
import type { TracingSettings } from '@portico/gateway';
import { startManagementTracing, withTraceIds } from './tracing/management-tracing.js';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { DEFAULT_SERVER_TIMEOUTS, httpServerTimeouts } from '@portico/gateway';
import type { Readiness, ServerTimeouts } from '@portico/gateway';
import type { EventBus, Storage } from '@portico/storage';
import type { AppContext, ManagementOptions } from './context.js';
import { DEFAULT_OPTIONS } from './context.js';
import { installErrorHandling } from './http/errors.js';
import { DEFAULT_BODY_LIMIT, installJsonBodyParser } from './http/json-body.js';
import { installAccessChecksBeforeValidation } from './http/access-checks.js';
import { installSessions, permissionGuards } from './http/auth.js';
import { installStatusRoutes } from './http/status.js';
import { installMetrics } from './http/metrics.js';
import { AuditService } from './features/audit/audit.service.js';
import { auditRoutes } from './features/audit/audit.routes.js';
import { analyticsRoutes } from './features/analytics/analytics.routes.js';
import { LoginThrottle } from './features/auth/login-throttle.js';
import { resolveJwtSecret } from './features/auth/secrets.js';
import { SessionTokens } from './features/auth/session.js';
import { ensureBuiltInRoles, ensureFirstAdmin } from './features/bootstrap/bootstrap.js';
import { Passwords } from './features/auth/passwords.js';
import { healthRoutes } from './features/health/health.routes.js';
import { identitiesRoutes } from './features/identities/identities.routes.js';
import { policiesRoutes } from './features/policies/policies.routes.js';
import { portalConfigurationRoutes } from './features/portal-configuration/portal-configuration.wiring.js';
import { instancesRoutes } from './features/instances/instances.routes.js';
import { apiHealthRoutes } from './features/health/health-api.routes.js';
import { apisRoutes } from './features/apis/apis.routes.js';
import { pagesFeature } from './features/pages/pages.wiring.js';
import { subscriptionFeatureRoutes } from './features/subscriptions/subscriptions.wiring.js';
import {
  clientRegistrationRoutes,
  createClientRegistration,
} from './features/client-registration/client-registration.routes.js';
import { MailService } from './features/mail/mail.service.js';
import { NotificationService } from './features/notifications/notifications.service.js';
import { PermissionService } from './features/permissions/permissions.service.js';
import { rolesRoutes } from './features/roles/roles.routes.js';
import { SettingsService } from './features/settings/settings.service.js';
import { groupsRoutes } from './features/groups/groups.routes.js';
import { settingsRoutes } from './features/settings/settings.routes.js';
import { UserService } from './features/user/user.service.js';
import { SocialLoginService } from './features/social-login/social-login.service.js';
import { userRoutes } from './features/user/user.routes.js';
import { RegistrationService } from './features/users/registration.service.js';
import { usersRoutes } from './features/users/users.routes.js';
import { usersAdminRoutes } from './features/users/users-admin.routes.js';
import { dictionaryFeature } from './features/dictionaries/dictionaries.wiring.js';
import { dynamicPropertiesFeature } from './features/dynamic-properties/dynamic-properties.wiring.js';
import { notificationSettingsFeature } from './features/notification-settings/notification-settings.wiring.js';
import { serviceDiscoveryRoutes } from './features/service-discovery/service-discovery.routes.js';
import { Scheduler } from './features/scheduler/scheduler.js';
import { requestRetentionJob } from './features/analytics/retention.job.js';
import { RequestIndexer } from './features/analytics/request-indexer.js';
import { indexPassesFor } from './features/analytics/request-indexer-thread.js';
import { throttleCleanupJob } from './features/auth/throttle-cleanup.job.js';
import { expiringKeysJob } from './features/subscriptions/expiring-keys.job.js';
import { messagesRoutes } from './features/messages/messages.routes.js';
import { alertsFeature } from './features/alerts/alerts.routes.js';
import { ticketsRoutes } from './features/tickets/tickets.routes.js';
import { ratingsRoutes } from './features/ratings/ratings.routes.js';

export const API_PREFIX = '/management';

export interface ManagementServices {
  permissions: PermissionService;
  audit: AuditService;
  settings: SettingsService;
  mail: MailService;
  notifications: NotificationService;
  registration: RegistrationService;
  users: UserService;
  tokens: SessionTokens;
  /** Runs scheduled jobs in the process holding the scheduler lease. */
  scheduler: Scheduler;
}

export interface ManagementApp {
  app: FastifyInstance;
  /** What `GET /ready` answers: 503 until listening and while draining. */
  readiness: Readiness;
  ctx: AppContext;
  services: ManagementServices;
}

export interface BuildOptions {
  storage: Storage;
  bus: EventBus;
  options?: Partial<ManagementOptions>;
  logger?: FastifyServerOptions['logger'];
  /** Slow clients: header, request and keep-alive timeouts of the server (10 s, 30 s, 65 s by default). */
  timeouts?: ServerTimeouts;
  /** When set, `GET /metrics` asks for `Authorization: Bearer <token>`. */
  metricsToken?: string | undefined;
  /** OpenTelemetry tracing of HTTP requests and SQL statements (OTLP/HTTP): off when undefined. */
  tracing?: TracingSettings | undefined;
  now?: () => number;
}

/**
 * Builds the management API: seeds roles and the first administrator, wires services and routes under
 * /management. The caller listens (or injects, in tests) and closes.
 */
export async function buildManagementApp(build: BuildOptions): Promise<ManagementApp> {
  const options: ManagementOptions = { ...DEFAULT_OPTIONS, ...build.options };
  const timeouts = httpServerTimeouts(build.timeouts ?? DEFAULT_SERVER_TIMEOUTS);
  const tracing = build.tracing
    ? startManagementTracing(build.tracing, build.storage, options.version)
    : undefined;
  const app = Fastify({
    // Slow clients cannot hold connections: Fastify sets these two on the server, `http` the others.
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    http: timeouts,
    logger: tracing ? withTraceIds(build.logger) : (build.logger ?? false),
    // The client's address (login throttle): the connection's, or behind trusted proxies X-Forwarded-For's.
    trustProxy: options.trustedProxies.length > 0 ? options.trustedProxies : false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Long ids and tokens in URLs are normal here; refuse only absurd ones. Gravitee 1.x clients
    // write paths with and without a trailing slash (`users/`, `instances/`): both answer.
    routerOptions: { maxParamLength: 1000, ignoreTrailingSlash: true },
  });
  tracing?.instrument(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const now = build.now ?? Date.now;
  const db = tracing?.db ?? build.storage.db;
  const ctx: AppContext = {
    storage: build.storage,
    db,
    bus: build.bus,
    options,
    log: app.log,
    requests: new RequestIndexer({
      passes: indexPassesFor(build.storage, db, options.geoipDatabase),
      log: app.log,
    }),
    now,
  };

  await ensureBuiltInRoles(ctx.db, now());
  const passwords = new Passwords(options.passwordHashCost);
  await ensureFirstAdmin(ctx.db, app.log, passwords, now());
  const secret = await resolveJwtSecret(ctx.db, options.jwtSecret, now());

  const audit = new AuditService(now);
  const permissions = new PermissionService(ctx.db);
  const settings = new SettingsService(ctx.db, audit, now, {
    ...(options.gatewayUrl ? { 'portal.entrypoint': options.gatewayUrl } : {}),
    ...(options.apiKeyHeader ? { 'portal.apikeyHeader': options.apiKeyHeader } : {}),
  });
  const mail = new MailService(ctx.db, settings, options.smtpUrl, app.log, now);
  const notifications = new NotificationService(now);
  const registration = new RegistrationService(
    ctx.db,
    secret,
    mail,
    settings,
    audit,
    options.portalUrl,
    passwords,
    now,
  );
  const tokens = new SessionTokens(secret, options.sessionTtlSeconds, now);
  const users = new UserService(ctx.db, permissions, audit, new LoginThrottle(ctx.db, now), passwords, now);
  const scheduler = new Scheduler(ctx.db, {
    tickMs: options.schedulerTickMs || 1000,
    leaseMs: options.schedulerLeaseMs,
    now,
    log: app.log,
  });
  const services: ManagementServices = {
    permissions,
    audit,
    settings,
    mail,
    notifications,
    registration,
    users,
    tokens,
    scheduler,
  };

  installErrorHandling(app);
  installJsonBodyParser(app);
  installAccessChecksBeforeValidation(app);
  await app.register(cookie);
  await app.register(cors, {
    origin: options.corsOrigins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'X-Xsrf-Token', 'X-Requested-With'],
    exposedHeaders: ['ETag', 'X-Xsrf-Token', 'Retry-After', 'Content-Disposition', 'Location'],
    maxAge: 600,
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Portico management API',
        description:
          'The control plane of Portico: APIs, plans, subscriptions, applications, users and settings.',
        version: options.version,
      },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'Auth-Portico' },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (documentObject) => {
      // Paths are documented relative to the /management server URL.
      const doc =
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      const paths = Object.fromEntries(
        Object.entries(doc.paths ?? {}).map(([path, item]) => [
          path.replace(/^\/management/, '') || '/',
          item,
        ]),
      );
      return { ...doc, paths } as typeof doc;
    },
  });

  const readiness = installStatusRoutes(app);
  installMetrics(app, build.metricsToken, { scheduler, db: ctx.db, now });
  const guards = permissionGuards(permissions);
  await app.register(
    async (api) => {
      installSessions(api, ctx, tokens, users);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      healthRoutes(api, ctx);
      userRoutes(api, {
        ctx,
        users,
        permissions,
        tokens,
        social: new SocialLoginService(ctx.db, audit, now, app.log),
      });
      usersRoutes(api, { ctx, guards, permissions, registration, settings });
      usersAdminRoutes(api, ctx, guards, audit);
      settingsRoutes(api, settings, permissions, guards);
      auditRoutes(api, ctx, guards);
      rolesRoutes(api, ctx, guards, permissions, audit);
      identitiesRoutes(api, { ctx, guards, permissions, audit });
      groupsRoutes(api, { ctx, guards, permissions, audit, mail, secret });
      policiesRoutes(api);
      instancesRoutes(api, ctx, guards);
      apiHealthRoutes(api, ctx, guards);
      analyticsRoutes(api, { ctx, guards, permissions, settings, audit });
      apisRoutes(api, { ctx, guards, permissions, audit, settings });
      portalConfigurationRoutes(api, { ctx, guards, permissions, audit, settings });
      const clientRegistration = createClientRegistration(ctx);
      const hooks = notificationSettingsFeature(api, {
        ...{ ctx, guards, permissions, audit },
        ...{ mail, notifications, scheduler },
      });
      alertsFeature(api, { ctx, guards, audit, hooks, scheduler });
      ticketsRoutes(api, { db: ctx.db, permissions, settings, mail, hooks });
      ratingsRoutes(api, { ctx, permissions, settings, audit, hooks });
      const subscriptionServices = subscriptionFeatureRoutes(api, {
        ...{ ctx, guards, permissions, audit, settings, mail, notifications, hooks },
        registrar: clientRegistration.registrar,
      });
      scheduler.add(expiringKeysJob(subscriptionServices.keys, now));
      clientRegistrationRoutes(api, {
        ...{ ctx, guards, permissions, audit, clientRegistration },
        services: subscriptionServices,
      });
      dictionaryFeature(api, { ctx, guards, permissions, audit, scheduler });
      dynamicPropertiesFeature({ ctx, audit, permissions, settings, scheduler });
      serviceDiscoveryRoutes(api);
      messagesRoutes(api, { ctx, guards, audit, notifications });
      pagesFeature(api, { ctx, guards, permissions, audit, settings, scheduler });
    },
    { prefix: API_PREFIX },
  );
  scheduler.add(throttleCleanupJob(ctx.db, now));
  scheduler.add(ctx.requests.job());
  scheduler.add(
    requestRetentionJob({ db: ctx.db, retention: options.analyticsRetention, now, log: app.log }),
  );
  if (options.schedulerTickMs > 0) scheduler.start();
  app.addHook('onClose', () => scheduler.stop());
  app.addHook('onClose', () => ctx.requests.close());
  if (tracing) app.addHook('onClose', () => tracing.provider.shutdown());
  return { app, readiness, ctx, services };
}
