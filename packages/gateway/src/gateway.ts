import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventBus, Storage } from '@portico/storage';
import type { OutboundSettings } from '@portico/outbound';
import { createOutboundPolicy } from '@portico/outbound';
import { insertHealthChecks } from '@portico/storage';
import type { Counters } from './counters/counters.js';
import { MemoryCounters } from './counters/counters.js';
import { RedisCounters } from './counters/redis-counters.js';
import { HealthChecker } from './health/health-checker.js';
import { Heartbeat } from './heartbeat/heartbeat.js';
import { createRequestHandler } from './http/handler.js';
import { reportSinkFor } from './reporting/report-sink.js';
import type { ReporterOptions } from './reporting/reporter.js';
import { DEFAULT_REPORTER_OPTIONS, Reporter, SQLITE_BATCH_SIZE } from './reporting/reporter.js';
import { TokenVerifier } from './security/tokens.js';
import { AccessState } from './sync/access-state.js';
import { snapshotFile } from './sync/snapshot.js';
import { SyncService } from './sync/sync.service.js';
import { watchForChanges } from './sync/change-watch.js';
import { DictionarySync, dictionariesFile } from './sync/dictionaries.js';
import { gatewayMetrics } from './metrics/gateway-metrics.js';
import { SnapshotMetric } from './metrics/registry.js';
import type { TracingSettings } from './tracing/settings.js';
import { startGatewayTracing } from './tracing/gateway-tracing.js';
import type { MetricsServer } from './metrics/metrics-server.js';
import { startMetricsServer, withMetrics } from './metrics/metrics-server.js';
import type { MetricsRegistry } from './metrics/registry.js';
import type { DrainPeriod } from './status/drain.js';
import { DEFAULT_DRAIN, HttpDrain } from './status/drain.js';
import type { StatusServer } from './status/status-server.js';
import { Readiness, startStatusServer } from './status/status-server.js';

export interface GatewayOptions {
  port: number;
  host: string;
  /** Sharding tags (`!tag` excludes). */
  tags: readonly string[];
  tenant?: string | undefined;
  /** Folder of the snapshot file. */
  dataDir: string;
  /** REDIS_URL: counters shared by every gateway. */
  redisUrl?: string | undefined;
  apiKeyHeader: string;
  apiKeyQueryParam: string;
  syncIntervalMs: number;
  /**
   * How long the first load from the database may take before the snapshot is served instead (the
   * load goes on behind it). Default 5 s.
   */
  startTimeoutMs?: number;
  /** Runs before the first load from the database, until it succeeds once (a migration deferred at start). */
  beforeFirstLoad?: (() => Promise<void>) | undefined;
  /** How often the served state is compared with the database and drift repaired. Default 30 s. */
  reconcileIntervalMs?: number;
  version: string;
  reporter?: Partial<ReporterOptions>;
  /** Slow clients: how long the server waits for a request's headers, for the whole request, and keeps an idle connection. */
  timeouts?: ServerTimeouts;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /**
   * The outbound-URL guard of the gateway's own fetches (service discovery's reads of Consul);
   * default: public addresses only. Calls to the APIs' backends are not guarded.
   */
  outbound?: OutboundSettings | undefined;
  /** OpenTelemetry tracing (OTLP/HTTP): off when undefined. */
  tracing?: TracingSettings | undefined;
  /**
   * Prometheus `GET /metrics`: on a listener of its own at this port (0: any free port); when
   * undefined, on the gateway's port.
   */
  metricsPort?: number | undefined;
  /** When set, a scrape must carry `Authorization: Bearer <token>`. */
  metricsToken?: string | undefined;
  /**
   * Port of the status listener (`GET /live`, `GET /ready`), opened before the first load so that
   * probes see 503 until the APIs are served; none when undefined (0: any free port).
   */
  statusPort?: number | undefined;
}

/** Timeouts of the server towards its clients, in milliseconds. */
export interface ServerTimeouts {
  /** Until the request's headers are in. */
  headersMs: number;
  /** Until the whole request (headers and body) is in; the backend's time to answer is not counted. */
  requestMs: number;
  /** An idle connection is kept this long between requests. */
  keepAliveMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 65_000,
};

/**
 * Node's options for these timeouts. Node checks the header and request timeouts every
 * connectionsCheckingInterval (30 s by default): checked often enough that a timeout holds within
 * about a quarter of its length.
 */
export function httpServerTimeouts(t: ServerTimeouts) {
  return {
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(t.headersMs / 4))),
  };
}

export const DEFAULT_GATEWAY_OPTIONS = {
  apiKeyHeader: 'x-api-key',
  apiKeyQueryParam: 'api-key',
  syncIntervalMs: 5000,
};

export interface RunningGateway {
  id: string;
  port: number;
  sync: SyncService;
  reporter: Reporter;
  /** The Prometheus metrics: other parts add theirs here. */
  metrics: MetricsRegistry;
  /** Port of the metrics listener, when one was asked for (else /metrics is on `port`). */
  metricsPort: number | undefined;
  /** Port of the status listener, when one was asked for. */
  statusPort: number | undefined;
  readiness: Readiness;
  /** Stops accepting, lets requests in flight finish, flushes reports, marks the instance stopped. */
  stop(): Promise<void>;
  /**
   * Leaves gracefully (SIGTERM): `/ready` answers 503 at once, calls keep being served for the
   * period's minimum (with `Connection: close`), calls in flight finish up to its maximum, then as
   * `stop`. `signal` (a second SIGTERM) cuts the waits short.
   */
  drain(period: DrainPeriod, signal?: AbortSignal): Promise<void>;
}

/**
 * Starts a gateway: loads what is deployed (or the snapshot when the database is down), serves it,
 * follows changes (poll, in-process bus, PostgreSQL NOTIFY), reports every request and beats.
 */
export async function startGateway(
  storage: Storage,
  bus: EventBus,
  options: GatewayOptions,
): Promise<RunningGateway> {
  const id = randomUUID();
  const readiness = new Readiness();
  const status: StatusServer | undefined =
    options.statusPort === undefined
      ? undefined
      : await startStatusServer(readiness, options.statusPort, options.host);
  const access = new AccessState();
  const sync = new SyncService(storage.db, access, {
    tags: options.tags,
    tenant: options.tenant,
    snapshotFile: snapshotFile(options.dataDir, options.port),
    now: Date.now,
    log: options.log,
    startTimeoutMs: options.startTimeoutMs,
    beforeFirstLoad: options.beforeFirstLoad,
    reconcileIntervalMs: options.reconcileIntervalMs,
    outbound: createOutboundPolicy(options.outbound),
  });
  const health = new HealthChecker({
    gatewayId: id,
    write: (rows) => insertHealthChecks(storage.db, rows),
    log: options.log,
  });
  sync.onRoutesChanged = (apis) => health.update(apis);
  // Listen first, load after: a change committed during the load is heard and applied after it.
  const unsubscribe = bus.subscribe((message) => {
    if (message.kind === 'event' || message.kind === 'subscription' || message.kind === 'apikey')
      void sync.sync();
  });
  const reporterOptions = {
    ...DEFAULT_REPORTER_OPTIONS,
    ...(storage.dialect === 'sqlite' ? { batchSize: SQLITE_BATCH_SIZE } : {}),
    ...options.reporter,
  };
  const sink = reportSinkFor(storage, reporterOptions);
  const stopWatching = await watchForChanges(storage, bus, sync, options, sink.commits);
  const source = await sync.start();
  const dictionaries = new DictionarySync(storage.db, {
    file: dictionariesFile(options.dataDir, options.port),
    pollMs: options.syncIntervalMs,
    log: options.log,
  });
  const unsubscribeDictionaries = bus.subscribe((message) => {
    if (message.kind === 'event' && message.id.endsWith('_DICTIONARY')) void dictionaries.sync();
  });
  // The database did not answer the routes' load: the dictionaries' file is served without a second wait.
  await dictionaries.start(source === 'database');
  health.update(sync.servedApis());
  const counters: Counters = options.redisUrl ? new RedisCounters(options.redisUrl) : new MemoryCounters();
  const reporter = new Reporter(sink, reporterOptions, (error) =>
    options.log.warn(`reports not written: ${String(error)}`),
  );
  const metrics = gatewayMetrics({ reporter, sync, health, now: Date.now });
  const tracing = startGatewayTracing(options.tracing, options.version, options.log);
  if (tracing) {
    metrics.snapshot(
      new SnapshotMetric(
        'portico_gateway_tracing_spans_dropped_total',
        'Spans dropped: export queue full, or the collector refused them or did not answer.',
        'counter',
        () => [{ labels: {}, value: tracing.dropped }],
      ),
    );
  }
  const handler = createRequestHandler({
    routes: () => sync.routes(),
    access,
    tokens: new TokenVerifier(),
    counters,
    reporter,
    security: {
      apiKeyHeader: options.apiKeyHeader.toLowerCase(),
      apiKeyQueryParam: options.apiKeyQueryParam,
    },
    gatewayId: id,
    tenant: options.tenant,
    dictionaries: () => dictionaries.current(),
    now: Date.now,
    tracer: tracing?.tracer,
    logError: (error, message) =>
      options.log.error(
        `${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
  });
  const server = http.createServer(
    httpServerTimeouts(options.timeouts ?? DEFAULT_SERVER_TIMEOUTS),
    options.metricsPort === undefined ? withMetrics(handler, metrics, options.metricsToken) : handler,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const metricsServer: MetricsServer | undefined =
    options.metricsPort === undefined
      ? undefined
      : await startMetricsServer(metrics, options.metricsToken, options.metricsPort, options.host);
  const drainer = new HttpDrain(server);

  const poll = setInterval(() => void sync.sync(), options.syncIntervalMs);
  poll.unref();

  const heartbeat = new Heartbeat(
    storage.db,
    { id, port, version: options.version, tags: options.tags, tenant: options.tenant },
    () => reporter.dropped,
    5000,
    () => ({ seq: sync.servedSeq, digest: sync.digest }),
  );
  await heartbeat.start().catch((e) => options.log.warn(`instance not registered: ${String(e)}`));
  if (source === 'empty') readiness.markLoadedWhen(() => sync.fromDatabase);
  else readiness.markLoaded();
  options.log.info(`gateway ${id} serving ${sync.servedApis().length} APIs (from ${source}) on port ${port}`);

  let stopping: Promise<void> | undefined;
  const drain = (period: DrainPeriod, signal?: AbortSignal) =>
    (stopping ??= (async () => {
      readiness.markDraining();
      // Served state keeps following changes while the calls finish.
      await drainer.drain(period, signal);
      clearInterval(poll);
      unsubscribe();
      unsubscribeDictionaries();
      stopWatching();
      await dictionaries.stop();
      health.stop();
      await reporter.close();
      await heartbeat.stop();
      await sync.close();
      await counters.close();
      await tracing?.shutdown();
      await status?.close();
      await metricsServer?.close();
    })());
  return {
    id,
    port,
    sync,
    reporter,
    metrics,
    metricsPort: metricsServer?.port,
    statusPort: status?.port,
    readiness,
    drain,
    stop: () => drain({ minMs: 0, maxMs: DEFAULT_DRAIN.maxMs }),
  };
}
