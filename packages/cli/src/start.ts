import { EventBus, SchemaTooNewError, connect, migrateToLatest, openStorage } from '@portico/storage';
import type { Storage } from '@portico/storage';
import type { PorticoConfig } from './config.js';
import { VERSION } from './version.js';
import { buildWebServer, webDistDir } from './web-server.js';

export interface Running {
  stop(): Promise<void>;
  /**
   * SIGTERM: every server turns `/ready` to 503 at once, keeps serving for the drain minimum, lets the
   * calls in flight finish up to the maximum, then everything stops as in `stop`. `signal` (a second
   * SIGTERM) ends the waits at once.
   */
  drain(signal?: AbortSignal): Promise<void>;
}

/** After a failed migration at start, how long a ping may take to count the database as reachable. */
const REACHABLE_CHECK_MS = 500;

/** Whether the database answers a ping within `ms`. */
function answersWithin(storage: Storage, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    storage.ping().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:****@');

/**
 * Runs the components of one process (all of them for `portico start`) and stops them cleanly:
 * servers stop accepting, in-flight requests finish, then the database closes, so no answered write
 * is lost.
 */
export async function startComponents(
  config: PorticoConfig,
  components: { management: boolean; gateway: boolean; web: boolean },
): Promise<Running> {
  const logger = { level: config.logLevel };
  const storageOptions = {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  };
  /** Gateway alone: the migration at start failed, so it is tried again before the first load. */
  let migrationDeferred = false;
  /** Gateway alone: the database did not answer at start. */
  let databaseUnreachable = false;
  const storage: Storage = await openStorage(storageOptions).catch(async (error: unknown) => {
    // A newer version migrated the database: this one does not know what it would read or write.
    if (components.management || error instanceof SchemaTooNewError) throw error;
    migrationDeferred = true;
    const fallback = connect(storageOptions);
    // Unreachable: the gateway serves its last snapshot meanwhile. Reachable (a newer version migrated
    // the database, during a rolling upgrade): it loads as usual.
    databaseUnreachable = !(await answersWithin(fallback, REACHABLE_CHECK_MS));
    console.warn(
      databaseUnreachable
        ? `[gateway] database unavailable (${String(error)}): starting from the snapshot`
        : `[gateway] database schema not migrated (${String(error)}): loading from it all the same`,
    );
    return fallback;
  });
  const bus = new EventBus();
  if (storage.pgPool) bus.publishToPostgres(storage.pgPool);
  const closers: (() => Promise<void>)[] = [() => bus.close()];
  /** Graceful leaving of each server, run together on SIGTERM before the closers. */
  const drainers: ((signal?: AbortSignal) => Promise<void>)[] = [];
  console.log(`Portico ${VERSION}`);
  console.log(
    `  storage:        ${storage.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : redact(config.databaseUrl!)}`,
  );
  try {
    if (components.management) {
      // Loaded only when needed: a gateway-only process stays small and starts fast.
      const { buildManagementApp } = await import('@portico/management');
      const { tracingSettings } = await import('@portico/gateway');
      const { app, readiness } = await buildManagementApp({
        storage,
        bus,
        logger,
        timeouts: config.httpTimeouts,
        metricsToken: config.metricsToken,
        tracing: tracingSettings(config.otel, 'portico-management', (m) => console.warn(`[management] ${m}`)),
        options: {
          jwtSecret: config.jwtSecret,
          sessionTtlSeconds: config.sessionTtlSeconds,
          corsOrigins: config.corsOrigins,
          smtpUrl: config.smtpUrl,
          portalUrl: config.webUrl,
          gatewayUrl: config.gatewayUrl,
          apiKeyHeader: config.apiKeyHeader,
          secureCookie: config.secureCookie,
          trustedProxies: config.trustedProxies,
          passwordHashCost: config.passwordHashCost,
          outbound: config.outbound,
          analyticsRetention: config.analyticsRetention,
          geoipDatabase: config.geoipDatabase,
          schedulerLeaseMs: config.schedulerLeaseMs,
          version: VERSION,
        },
      });
      const { HttpDrain } = await import('@portico/gateway');
      const drainer = new HttpDrain(app.server);
      await app.listen({ port: config.managementPort, host: config.managementHost });
      let closing: Promise<void> | undefined;
      const close = () => (closing ??= app.close());
      // In-flight writes finish: Fastify's close waits for the requests under way.
      drainers.push(async (signal) => {
        readiness.markDraining();
        await drainer.drain(config.drain, signal, close);
      });
      closers.push(close);
      console.log(`  management API: http://localhost:${config.managementPort}/management/`);
    }
    if (components.gateway) {
      const { startGateway, tracingSettings } = await import('@portico/gateway');
      const log = {
        info: (m: string) =>
          ['info', 'debug', 'trace'].includes(config.logLevel) ? console.log(`[gateway] ${m}`) : undefined,
        warn: (m: string) => console.warn(`[gateway] ${m}`),
        error: (m: string) => console.error(`[gateway] ${m}`),
      };
      const gateway = await startGateway(storage, bus, {
        port: config.gatewayPort,
        host: config.gatewayHost,
        tags: config.gatewayTags,
        tenant: config.gatewayTenant,
        dataDir: config.dataDir,
        redisUrl: config.redisUrl,
        apiKeyHeader: config.apiKeyHeader,
        apiKeyQueryParam: config.apiKeyQueryParam,
        syncIntervalMs: 5000,
        // The database just failed to answer within the connection timeout: serve the snapshot at once
        // rather than wait for it again (the first load goes on behind, every sync retries).
        startTimeoutMs: databaseUnreachable ? 0 : config.databaseConnectTimeoutMs,
        beforeFirstLoad: migrationDeferred ? async () => void (await migrateToLatest(storage.db)) : undefined,
        timeouts: config.httpTimeouts,
        outbound: config.outbound,
        statusPort: config.gatewayStatusPort,
        metricsPort: config.gatewayMetricsPort,
        metricsToken: config.metricsToken,
        tracing: tracingSettings(config.otel, 'portico-gateway', log.warn),
        version: VERSION,
        log,
      });
      drainers.push((signal) => gateway.drain(config.drain, signal));
      closers.push(() => gateway.stop());
      const counters = config.redisUrl ? ` (counters in ${redact(config.redisUrl)})` : '';
      console.log(`  gateway:        http://localhost:${gateway.port}/${counters}`);
      console.log(`  gateway status: http://localhost:${gateway.statusPort}/ready`);
      console.log(`  gateway metrics: http://localhost:${gateway.metricsPort ?? gateway.port}/metrics`);
    }
    if (components.web) {
      const dist = webDistDir();
      if (dist) {
        const web = await buildWebServer({
          dist,
          managementPort: config.managementPort,
          managementUrl: config.managementUrl,
          gatewayUrl: config.gatewayUrl,
          analyticsWidgets: config.analyticsWidgets,
        });
        await web.listen({ port: config.webPort, host: config.webHost });
        closers.push(() => web.close());
        console.log(`  web app:        http://localhost:${config.webPort}/ (console at /management)`);
      } else {
        console.warn('  web app:        not built (run "npm run build"), not served');
      }
    }
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => {});
    await storage.close();
    throw error;
  }
  const stop = async () => {
    for (const close of closers.reverse()) await close();
    await storage.close();
  };
  return {
    stop,
    async drain(signal) {
      await Promise.all(drainers.map((drain) => drain(signal)));
      await stop();
    },
  };
}
