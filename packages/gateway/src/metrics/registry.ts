import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metric } from 'prom-client';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * The process metrics (CPU, memory, heap, event loop, GC, handles: prom-client's default metrics),
 * collected once per process and shown by every metrics endpoint of the process (gateway and
 * management in `portico start`).
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** One value of a metric computed at scrape time (see SnapshotMetric). */
export interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  /** A histogram's `_bucket`, `_sum` and `_count` lines. */
  metricName?: string;
}

/**
 * A metric whose values are computed when scraped, from figures kept elsewhere (the gateway's request
 * counts, kept without labels objects on the request path). It meets the contract prom-client's
 * registry reads metrics by (`name`, `help`, `type`, `get()`).
 */
export class SnapshotMetric {
  readonly aggregator = 'sum';
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
    private readonly values: () => MetricValue[],
  ) {}

  get() {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values: this.values(),
      aggregator: this.aggregator,
    });
  }
}

/**
 * The metrics of one server (a gateway, the management API): its own registry, shown with the
 * process metrics. Other parts add their metrics with `counter()` / `gauge()` (idempotent by name)
 * or register prom-client metrics on `registry` directly.
 */
export class MetricsRegistry {
  readonly registry = new Registry();

  counter<L extends string = string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Counter<L>;
    return new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  gauge<L extends string = string>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    collect?: (this: Gauge<L>) => void | Promise<void>,
  ): Gauge<L> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Gauge<L>;
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(collect ? { collect } : {}),
    });
  }

  /** Registers a metric computed at scrape time. */
  snapshot(metric: SnapshotMetric): void {
    this.registry.registerMetric(metric as unknown as Metric);
  }

  /** The exposition text of this registry and the process metrics. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}

/** Whether an Authorization header carries the bearer token (always, when no token is configured). */
export function authorised(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Answers `GET /metrics` (node:http) with the registry's figures; 401 without the configured token. */
export function serveMetrics(
  metrics: MetricsRegistry,
  token: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  req.resume();
  if (!authorised(req.headers.authorization, token)) {
    res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized');
    return;
  }
  metrics.scrape().then(
    ({ contentType, body }) => {
      res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
    },
    (error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics not collected: ${String(error)}`);
    },
  );
}

/** The path of a scrape on a server that answers other requests too: `/metrics`, with or without a query. */
export function isMetricsRequest(req: IncomingMessage): boolean {
  const url = req.url;
  return (
    url !== undefined &&
    url.startsWith('/metrics') &&
    (url.length === 8 || url.charCodeAt(8) === 63) &&
    (req.method === 'GET' || req.method === 'HEAD')
  );
}
