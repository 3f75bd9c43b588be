import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** GET health: 200 when the database answers, 503 otherwise (for load balancers and scripts). */
export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/health',
    { schema: { tags: ['Platform'], summary: 'Liveness of the management API and its database' } },
    async (request, reply) => {
      try {
        await ctx.storage.ping();
        return { status: 'UP', database: { status: 'UP', dialect: ctx.storage.dialect } };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database does not answer');
        return reply.code(503).send({ message: 'Database unavailable', http_status: 503, status: 'DOWN' });
      }
    },
  );
}
