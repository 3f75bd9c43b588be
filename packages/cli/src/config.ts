import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import type { OptionalWidget } from './analytics.config.js';
import { OPTIONAL_WIDGETS, analyticsWidgets } from './analytics.config.js';

/**
 * The configuration of a Portico process: `portico.yml` (optional; PORTICO_CONFIG names another file)
 * and environment variables, which always win.
 */
export const ConfigFile = z.strictObject({
  dataDir: z.string().optional(),
  database: z
    .strictObject({ url: z.string().optional(), connectTimeoutMs: z.number().int().min(1).optional() })
    .optional(),
  redis: z.strictObject({ url: z.string().optional() }).optional(),
  management: z
    .strictObject({
      port: z.number().int().min(0).max(65535).optional(),
      host: z.string().optional(),
      url: z.string().url().optional(),
      jwtSecret: z.string().min(32).optional(),
      sessionTtlSeconds: z.number().int().min(60).optional(),
      corsOrigins: z.array(z.string()).optional(),
      secureCookie: z.boolean().optional(),
      trustedProxies: z.array(z.string()).optional(),
      passwordHashCost: z.number().int().min(4).max(15).optional(),
    })
    .optional(),
  gateway: z
    .strictObject({
      port: z.number().int().min(0).max(65535).optional(),
      host: z.string().optional(),
      tags: z.array(z.string()).optional(),
      tenant: z.string().optional(),
      apiKeyHeader: z.string().min(1).optional(),
      apiKeyQueryParam: z.string().min(1).optional(),
      url: z.string().optional(),
      statusPort: z.number().int().min(0).max(65535).optional(),
      metricsPort: z.number().int().min(0).max(65535).optional(),
    })
    .optional(),
  /** Prometheus `GET /metrics` (README "Metrics"). */
  metrics: z.strictObject({ token: z.string().min(1).optional() }).optional(),
  /** Graceful stop on SIGTERM (README "Running as a cluster"). */
  drain: z
    .strictObject({ minMs: z.number().int().min(0).optional(), maxMs: z.number().int().min(0).optional() })
    .optional(),
  web: z
    .strictObject({
      port: z.number().int().min(0).max(65535).optional(),
      host: z.string().optional(),
      url: z.string().optional(),
    })
    .optional(),
  smtp: z.strictObject({ url: z.string().optional() }).optional(),
  /** Timeouts of the gateway and management servers towards slow clients. */
  http: z
    .strictObject({
      headersTimeoutMs: z.number().int().min(1).optional(),
      requestTimeoutMs: z.number().int().min(1).optional(),
      keepAliveTimeoutMs: z.number().int().min(1).optional(),
    })
    .optional(),
  outbound: z
    .strictObject({
      allowPrivate: z.boolean().optional(),
      allowed: z.array(z.string()).optional(),
      proxy: z.string().optional(),
    })
    .optional(),
  /** Retention of analytics storage (README "Analytics storage"). */
  analytics: z
    .strictObject({
      requestRetentionDays: z.number().int().min(1).optional(),
      rollupRetentionDays: z.number().int().min(1).optional(),
      widgets: z.array(z.enum(OPTIONAL_WIDGETS)).optional(),
      geoipDatabase: z.string().optional(),
    })
    .optional(),
  /**
   * OpenTelemetry tracing: the standard variables' names as keys (`OTEL_EXPORTER_OTLP_ENDPOINT`,
   * `OTEL_TRACES_SAMPLER`, ...); a variable of the environment wins over its key here.
   */
  otel: z
    .record(z.string().regex(/^OTEL_[A-Z0-9_]+$/), z.union([z.string(), z.number(), z.boolean()]))
    .optional(),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    })
    .optional(),
});

export interface PorticoConfig {
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: how long opening a connection may take (a silent host fails after this). */
  databaseConnectTimeoutMs: number;
  redisUrl: string | undefined;
  managementPort: number;
  managementHost: string;
  /** Public URL of the management API, when the web app must not derive it from its own host name. */
  managementUrl: string | undefined;
  gatewayPort: number;
  gatewayHost: string;
  gatewayTags: string[];
  gatewayTenant: string | undefined;
  /** Port of the gateway's status listener (GET /live, GET /ready). */
  gatewayStatusPort: number;
  /** Port of the gateway's own metrics listener; undefined: `/metrics` on the gateway's port. */
  gatewayMetricsPort: number | undefined;
  /** When set, scrapes of `/metrics` (gateway and management) carry `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** SIGTERM: serve at least minMs more (with /ready at 503), finish calls in flight up to maxMs. */
  drain: { minMs: number; maxMs: number };
  /** How long the scheduler lease of a management node holds without renewal. */
  schedulerLeaseMs: number;
  /** Public URL of the gateway, the portal's default entrypoint (from the gateway's port by default). */
  gatewayUrl: string;
  /** Header and query parameter that carry API keys (X-Api-Key and api-key by default). */
  apiKeyHeader: string;
  apiKeyQueryParam: string;
  webPort: number;
  webHost: string;
  /** Public URL of the web app (links in mails, CORS origin). */
  webUrl: string;
  jwtSecret: string | undefined;
  sessionTtlSeconds: number;
  corsOrigins: string[];
  secureCookie: boolean;
  /** Reverse proxies whose X-Forwarded-For gives the client's address to the management API. */
  trustedProxies: string[];
  /** bcrypt cost of new password hashes (4 to 15, default 10). */
  passwordHashCost: number;
  smtpUrl: string | undefined;
  /** Header, request and keep-alive timeouts of the gateway and management servers (ms). */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** Server-side requests to user-given URLs: also reach private addresses, and the hosts/ranges always allowed. */
  outbound: { allowPrivate: boolean; allowed: string[]; proxy?: string };
  /** Days raw requests (and their logs) and per-minute rollups are kept. */
  analyticsRetention: { requestDays: number; rollupDays: number };
  /** The optional dashboard widgets shown (section 9 of the spec), in this order. */
  analyticsWidgets: OptionalWidget[];
  /** A GeoIP database in the MaxMind DB format (GeoLite2 or DB-IP City or Country) for the geo widgets. */
  geoipDatabase: string | undefined;
  logLevel: string;
  /** The OTEL_* tracing variables: portico.yml's `otel` keys, overridden by the environment's. */
  otel: Record<string, string | undefined>;
  /** The file that was read, if any. */
  file: string | undefined;
}

function port(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${name} must be a port number, not "${value}"`);
  return n;
}

const nonEmpty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

function milliseconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a number of milliseconds, not "${value}"`);
  return n;
}

function duration(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a number of milliseconds, not "${value}"`);
  return n;
}

function drainPeriod(env: NodeJS.ProcessEnv, file: z.infer<typeof ConfigFile>['drain']) {
  const minMs = duration('PORTICO_DRAIN_MIN_MS', env.PORTICO_DRAIN_MIN_MS) ?? file?.minMs ?? 5000;
  const maxMs = duration('PORTICO_DRAIN_MAX_MS', env.PORTICO_DRAIN_MAX_MS) ?? file?.maxMs ?? 30_000;
  if (minMs > maxMs)
    throw new Error(`The drain minimum (${minMs} ms) must not exceed the drain maximum (${maxMs} ms)`);
  return { minMs, maxMs };
}

function hashCost(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 4 || n > 15)
    throw new Error(`PORTICO_PASSWORD_HASH_COST must be an integer from 4 to 15, not "${value}"`);
  return n;
}

function days(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a number of days, not "${value}"`);
  return n;
}

function otelVariables(env: NodeJS.ProcessEnv, file: z.infer<typeof ConfigFile>['otel']) {
  const vars: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(file ?? {})) vars[key] = String(value);
  for (const [key, value] of Object.entries(env)) if (key.startsWith('OTEL_') && value) vars[key] = value;
  return vars;
}

function httpTimeouts(env: NodeJS.ProcessEnv, file: z.infer<typeof ConfigFile>['http']) {
  const timeouts = {
    headersMs:
      milliseconds('PORTICO_HTTP_HEADERS_TIMEOUT_MS', env.PORTICO_HTTP_HEADERS_TIMEOUT_MS) ??
      file?.headersTimeoutMs ??
      10_000,
    requestMs:
      milliseconds('PORTICO_HTTP_REQUEST_TIMEOUT_MS', env.PORTICO_HTTP_REQUEST_TIMEOUT_MS) ??
      file?.requestTimeoutMs ??
      30_000,
    keepAliveMs:
      milliseconds('PORTICO_HTTP_KEEP_ALIVE_TIMEOUT_MS', env.PORTICO_HTTP_KEEP_ALIVE_TIMEOUT_MS) ??
      file?.keepAliveTimeoutMs ??
      65_000,
  };
  // Node refuses a header timeout longer than the request timeout.
  if (timeouts.headersMs > timeouts.requestMs)
    throw new Error(
      `The headers timeout (${timeouts.headersMs} ms) must not exceed the request timeout (${timeouts.requestMs} ms)`,
    );
  return timeouts;
}

/** Reads portico.yml (if any) and the environment; throws with a clear message on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): PorticoConfig {
  const file = env.PORTICO_CONFIG ? path.resolve(cwd, env.PORTICO_CONFIG) : path.join(cwd, 'portico.yml');
  let fromFile: z.infer<typeof ConfigFile> = {};
  const found = existsSync(file);
  if (env.PORTICO_CONFIG && !found) throw new Error(`Configuration file ${file} not found`);
  if (found) {
    const parsed = ConfigFile.safeParse(parse(readFileSync(file, 'utf8')) ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    fromFile = parsed.data;
  }
  const webPort = port('PORTICO_WEB_PORT', env.PORTICO_WEB_PORT) ?? fromFile.web?.port ?? 8084;
  const gatewayPort =
    port('PORTICO_GATEWAY_PORT', env.PORTICO_GATEWAY_PORT) ?? fromFile.gateway?.port ?? 8082;
  const webUrl = (
    nonEmpty(env.PORTICO_WEB_URL) ??
    fromFile.web?.url ??
    `http://localhost:${webPort}`
  ).replace(/\/$/, '');
  const tags =
    nonEmpty(env.PORTICO_GATEWAY_TAGS)
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean) ??
    fromFile.gateway?.tags ??
    [];
  return {
    dataDir: path.resolve(cwd, nonEmpty(env.PORTICO_DATA_DIR) ?? fromFile.dataDir ?? './data'),
    databaseUrl: nonEmpty(env.DATABASE_URL) ?? fromFile.database?.url,
    databaseConnectTimeoutMs:
      milliseconds('PORTICO_DATABASE_CONNECT_TIMEOUT_MS', env.PORTICO_DATABASE_CONNECT_TIMEOUT_MS) ??
      fromFile.database?.connectTimeoutMs ??
      5000,
    redisUrl: nonEmpty(env.REDIS_URL) ?? fromFile.redis?.url,
    managementPort:
      port('PORTICO_MANAGEMENT_PORT', env.PORTICO_MANAGEMENT_PORT) ?? fromFile.management?.port ?? 8083,
    managementHost: nonEmpty(env.PORTICO_MANAGEMENT_HOST) ?? fromFile.management?.host ?? '0.0.0.0',
    managementUrl: nonEmpty(env.PORTICO_MANAGEMENT_URL) ?? fromFile.management?.url,
    gatewayPort,
    gatewayHost: nonEmpty(env.PORTICO_GATEWAY_HOST) ?? fromFile.gateway?.host ?? '0.0.0.0',
    gatewayTags: tags,
    gatewayTenant: nonEmpty(env.PORTICO_GATEWAY_TENANT) ?? fromFile.gateway?.tenant,
    gatewayStatusPort:
      port('PORTICO_GATEWAY_STATUS_PORT', env.PORTICO_GATEWAY_STATUS_PORT) ??
      fromFile.gateway?.statusPort ??
      18082,
    gatewayMetricsPort:
      port('PORTICO_GATEWAY_METRICS_PORT', env.PORTICO_GATEWAY_METRICS_PORT) ?? fromFile.gateway?.metricsPort,
    metricsToken: nonEmpty(env.PORTICO_METRICS_TOKEN) ?? fromFile.metrics?.token,
    drain: drainPeriod(env, fromFile.drain),
    schedulerLeaseMs: milliseconds('PORTICO_SCHEDULER_LEASE_MS', env.PORTICO_SCHEDULER_LEASE_MS) ?? 30_000,
    gatewayUrl: (
      nonEmpty(env.PORTICO_GATEWAY_URL) ??
      fromFile.gateway?.url ??
      `http://localhost:${gatewayPort}`
    ).replace(/\/$/, ''),
    apiKeyHeader: nonEmpty(env.PORTICO_API_KEY_HEADER) ?? fromFile.gateway?.apiKeyHeader ?? 'X-Api-Key',
    apiKeyQueryParam:
      nonEmpty(env.PORTICO_API_KEY_QUERY_PARAM) ?? fromFile.gateway?.apiKeyQueryParam ?? 'api-key',
    webPort,
    webHost: nonEmpty(env.PORTICO_WEB_HOST) ?? fromFile.web?.host ?? '0.0.0.0',
    webUrl,
    jwtSecret: nonEmpty(env.PORTICO_JWT_SECRET) ?? fromFile.management?.jwtSecret,
    sessionTtlSeconds: fromFile.management?.sessionTtlSeconds ?? 7 * 24 * 3600,
    corsOrigins: nonEmpty(env.PORTICO_CORS_ORIGINS)
      ?.split(',')
      .map((o) => o.trim()) ??
      fromFile.management?.corsOrigins ?? [
        webUrl,
        `http://localhost:${webPort}`,
        `http://127.0.0.1:${webPort}`,
      ],
    secureCookie: env.PORTICO_SECURE_COOKIE
      ? env.PORTICO_SECURE_COOKIE === 'true'
      : (fromFile.management?.secureCookie ?? false),
    trustedProxies:
      nonEmpty(env.PORTICO_TRUSTED_PROXIES)
        ?.split(',')
        .map((a) => a.trim())
        .filter(Boolean) ??
      fromFile.management?.trustedProxies ??
      [],
    passwordHashCost: hashCost(env.PORTICO_PASSWORD_HASH_COST) ?? fromFile.management?.passwordHashCost ?? 10,
    smtpUrl: nonEmpty(env.PORTICO_SMTP_URL) ?? fromFile.smtp?.url,
    httpTimeouts: httpTimeouts(env, fromFile.http),
    outbound: {
      allowPrivate: env.PORTICO_OUTBOUND_ALLOW_PRIVATE
        ? env.PORTICO_OUTBOUND_ALLOW_PRIVATE === 'true'
        : (fromFile.outbound?.allowPrivate ?? false),
      allowed:
        nonEmpty(env.PORTICO_OUTBOUND_ALLOWED)
          ?.split(',')
          .map((a) => a.trim())
          .filter(Boolean) ??
        fromFile.outbound?.allowed ??
        [],
      proxy: nonEmpty(env.PORTICO_OUTBOUND_PROXY) ?? fromFile.outbound?.proxy,
    },
    analyticsRetention: {
      requestDays:
        days('PORTICO_ANALYTICS_REQUEST_RETENTION_DAYS', env.PORTICO_ANALYTICS_REQUEST_RETENTION_DAYS) ??
        fromFile.analytics?.requestRetentionDays ??
        30,
      rollupDays:
        days('PORTICO_ANALYTICS_ROLLUP_RETENTION_DAYS', env.PORTICO_ANALYTICS_ROLLUP_RETENTION_DAYS) ??
        fromFile.analytics?.rollupRetentionDays ??
        400,
    },
    ...analyticsWidgets(env, fromFile.analytics, cwd),
    logLevel: nonEmpty(env.PORTICO_LOG_LEVEL) ?? fromFile.log?.level ?? 'info',
    otel: otelVariables(env, fromFile.otel),
    file: found ? file : undefined,
  };
}
