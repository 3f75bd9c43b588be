import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SERVICE_DISCOVERY_PROVIDERS, notFound } from '@portico/model';
import { requireUser } from '../../http/auth.js';

/** `services-discovery`: the providers an endpoint group can discover its endpoints with. */
export function serviceDiscoveryRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/services-discovery',
    {
      schema: { tags: ['APIs'], summary: 'Service discovery providers of endpoint groups' },
      preHandler: requireUser,
    },
    async () =>
      SERVICE_DISCOVERY_PROVIDERS.map((p) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        version: p.version,
      })),
  );
  r.get(
    '/services-discovery/:provider/schema',
    {
      schema: {
        tags: ['APIs'],
        summary: "A service discovery provider's configuration JSON schema",
        params: z.object({ provider: z.string() }),
      },
      preHandler: requireUser,
    },
    async (request) => {
      const provider = SERVICE_DISCOVERY_PROVIDERS.find((p) => p.id === request.params.provider);
      if (!provider) throw notFound('Service discovery', request.params.provider);
      return provider.schema;
    },
  );
}
