import type { FastifyInstance } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry, authorised } from '@portico/gateway';
import type { Executor } from '@portico/storage';
import { pendingNotificationDeliveries } from '@portico/storage';
import type { Scheduler } from '../features/scheduler/scheduler.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What the management server's figures are read from besides its requests. */
export interface ManagementMetricsSources {
  scheduler: Scheduler;
  db: Executor;
  now(): number;
}

/**
 * `GET /metrics` of the management server (Prometheus), outside /management/: requests and their
 * duration per method, route pattern (`/management/apis/:api`, never the raw URL) and status class,
 * the scheduler's lease and job runs, the notification deliveries waiting, plus the process metrics.
 * With a token configured a scrape must carry `Authorization: Bearer <token>`.
 */
export function installMetrics(
  app: FastifyInstance,
  token: string | undefined,
  sources: ManagementMetricsSources,
): MetricsRegistry {
  const metrics = new MetricsRegistry();
  schedulerAndNotificationMetrics(metrics, sources);
  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = new Counter({
    name: 'portico_management_http_requests_total',
    help: 'Requests answered by the management server, per method, route pattern and status class.',
    labelNames,
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: 'portico_management_http_request_duration_seconds',
    help: 'Time to answer a request of the management server, per method, route pattern and status class.',
    labelNames,
    registers: [metrics.registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: METHODS.has(request.method) ? request.method : 'OTHER',
      // Unmatched URLs (404s) share one label: their paths are whatever clients sent.
      route: request.routeOptions.url ?? 'unmatched',
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!authorised(request.headers.authorization, token))
      return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
  return metrics;
}

function schedulerAndNotificationMetrics(metrics: MetricsRegistry, sources: ManagementMetricsSources): void {
  const { scheduler } = sources;
  metrics.gauge(
    'portico_management_scheduler_lease_held',
    'Whether this process held the scheduler lease at its last tick (1: it runs the scheduled jobs).',
    [],
    function () {
      this.set(scheduler.leaseHeld ? 1 : 0);
    },
  );
  const runs = metrics.counter(
    'portico_management_scheduler_job_runs_total',
    'Scheduled job runs, per job and outcome.',
    ['job', 'outcome'],
  );
  const durations = new Histogram({
    name: 'portico_management_scheduler_job_duration_seconds',
    help: 'Duration of scheduled job runs, per job.',
    labelNames: ['job'],
    registers: [metrics.registry],
  });
  scheduler.onJobRun = (job, ok, seconds) => {
    runs.inc({ job, outcome: ok ? 'ok' : 'failed' });
    durations.observe({ job }, seconds);
  };
  // One read per scrape for both figures (their collects run together).
  let reading: Promise<{ count: number; oldestCreatedAt: number | null } | undefined> | undefined;
  const read = () =>
    (reading ??= pendingNotificationDeliveries(sources.db)
      // The database away: the figures stay as last read, the scrape still answers.
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined))));
  metrics.gauge(
    'portico_management_notification_deliveries_pending',
    'Notification deliveries (mails, webhooks) waiting to be sent or retried.',
    [],
    async function () {
      const pending = await read();
      if (pending) this.set(pending.count);
    },
  );
  metrics.gauge(
    'portico_management_notification_oldest_pending_seconds',
    'Age of the oldest notification delivery waiting (0: none waiting).',
    [],
    async function () {
      const pending = await read();
      if (!pending) return;
      const oldest = pending.oldestCreatedAt;
      this.set(oldest === null ? 0 : Math.max(0, sources.now() - oldest) / 1000);
    },
  );
}
