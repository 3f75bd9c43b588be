import type { FastifyInstance } from 'fastify';
import { Readiness } from '@portico/gateway';

/**
 * `GET /live` and `GET /ready` of the management server, on its own port and outside /management/
 * (what a Kubernetes probe or a load balancer's health check calls): live while the process works,
 * ready once the server listens with its roles and first administrator in place, 503 while draining.
 */
export function installStatusRoutes(app: FastifyInstance): Readiness {
  const readiness = new Readiness();
  app.addHook('onReady', async () => readiness.markLoaded());
  const hidden = { schema: { hide: true } };
  app.get('/live', hidden, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'UP' }),
  );
  app.get('/ready', hidden, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (readiness.ready) return reply.send({ status: 'READY' });
    return reply.code(503).send({ status: readiness.draining ? 'DRAINING' : 'STARTING' });
  });
  return readiness;
}
