import type { HealthChecker } from '../health/health-checker.js';
import type { Reporter } from '../reporting/reporter.js';
import type { SyncService } from '../sync/sync.service.js';
import { MetricsRegistry, SnapshotMetric } from './registry.js';
import type { MetricsLimits } from './request-metrics.js';
import { DEFAULT_METRICS_LIMITS, RequestMetrics } from './request-metrics.js';

export interface GatewayMetricsSources {
  reporter: Reporter;
  sync: SyncService;
  health: HealthChecker;
  now(): number;
  limits?: Partial<MetricsLimits>;
}

/**
 * The gateway's Prometheus metrics: requests (through the reporter, which sees every request),
 * rejections, upstream latency, the reporter's queue and drops, sync, endpoint health. Metrics of
 * other parts of the gateway go on `registry` (e.g. `registry.counter(...)`).
 */
export function gatewayMetrics(sources: GatewayMetricsSources): MetricsRegistry {
  const metrics = new MetricsRegistry();
  const requests = new RequestMetrics({ ...DEFAULT_METRICS_LIMITS, ...sources.limits });
  sources.reporter.observe = (record) => requests.record(record);
  for (const metric of requests.metrics()) metrics.snapshot(metric);

  const { reporter, sync, health } = sources;
  const started = sources.now();
  metrics.gauge(
    'portico_gateway_reporter_queue_length',
    'Request records waiting to be written.',
    [],
    function () {
      this.set(reporter.pending);
    },
  );
  metrics.snapshot(
    new SnapshotMetric(
      'portico_gateway_reporter_dropped_total',
      'Request records dropped: queue full, or their batch refused by the database.',
      'counter',
      () => [{ labels: {}, value: reporter.dropped }],
    ),
  );
  metrics.snapshot(
    new SnapshotMetric(
      'portico_gateway_reporter_written_total',
      'Request records written.',
      'counter',
      () => [{ labels: {}, value: reporter.written }],
    ),
  );
  metrics.gauge(
    'portico_gateway_sync_lag_seconds',
    'Seconds since the last successful sync with the database (or the start, before the first one).',
    [],
    function () {
      this.set(Math.max(0, sources.now() - (sync.lastSyncAt || started)) / 1000);
    },
  );
  metrics.gauge(
    'portico_gateway_last_sync_timestamp_seconds',
    'Unix time of the last successful sync with the database (0: none yet, serving the snapshot).',
    [],
    function () {
      this.set(sync.lastSyncAt / 1000);
    },
  );
  metrics.gauge('portico_gateway_apis', 'APIs served.', [], function () {
    this.set(sync.servedApis().length);
  });
  metrics.gauge(
    'portico_gateway_endpoint_health',
    'Health-check state per checked endpoint: 3 up, 2 transitionally up, 1 transitionally down, 0 down.',
    ['api', 'endpoint'],
    function () {
      this.reset();
      for (const e of health.endpointStates()) this.set({ api: e.api, endpoint: e.endpoint }, e.state);
    },
  );
  return metrics;
}
