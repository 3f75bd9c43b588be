import type { FastifyInstance } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry, authorised } from '@portico/gateway';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * `GET /metrics` of the management server (Prometheus), outside /management/: requests and their
 * duration per method, route pattern (`/management/apis/:apiId`, never the raw URL) and status class,
 * plus the process metrics. With a token configured a scrape must carry `Authorization: Bearer <token>`.
 */
export function installMetrics(app: FastifyInstance, token: string | undefined): MetricsRegistry {
  const metrics = new MetricsRegistry();
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
