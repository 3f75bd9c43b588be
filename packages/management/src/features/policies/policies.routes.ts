import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '@portico/model';
import { POLICIES, RESOURCE_TYPES, describePolicy, describeResourceType } from '@portico/gateway';
import { requireUser } from '../../http/auth.js';

/**
 * The gateway's policy and resource registries, for the console's policy and resource screens: every
 * policy the gateway implements with its configuration's JSON schema (the same schema validates
 * configurations on save and at deployment).
 */
export function policiesRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/policies',
    {
      schema: {
        tags: ['Policies'],
        summary: 'Every policy of the gateway (with its JSON schema when expandSchema=true)',
        querystring: z.object({ expandSchema: z.enum(['true', 'false']).optional() }),
      },
      preHandler: requireUser,
    },
    async (request) =>
      [...POLICIES.values()].map((p) => {
        const { schema, ...rest } = describePolicy(p);
        return request.query.expandSchema === 'true' ? { ...rest, schema } : rest;
      }),
  );

  r.get(
    '/policies/:policy/schema',
    {
      schema: {
        tags: ['Policies'],
        summary: "A policy's configuration JSON schema",
        params: z.object({ policy: z.string() }),
      },
      preHandler: requireUser,
    },
    async (request) => {
      const policy = POLICIES.get(request.params.policy);
      if (!policy) throw notFound('Policy', request.params.policy);
      return describePolicy(policy).schema;
    },
  );

  r.get(
    '/resources',
    { schema: { tags: ['Policies'], summary: 'Resource types an API can declare' }, preHandler: requireUser },
    async () =>
      [...RESOURCE_TYPES.values()].map((t) => ({ id: t.id, name: t.name, description: t.description })),
  );

  r.get(
    '/resources/:type/schema',
    {
      schema: {
        tags: ['Policies'],
        summary: "A resource type's configuration JSON schema",
        params: z.object({ type: z.string() }),
      },
      preHandler: requireUser,
    },
    async (request) => {
      const type = RESOURCE_TYPES.get(request.params.type);
      if (!type) throw notFound('Resource type', request.params.type);
      return describeResourceType(type).schema;
    },
  );
}
