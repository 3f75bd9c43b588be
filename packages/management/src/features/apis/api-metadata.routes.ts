import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MetadataInput } from '@portico/model';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { ApiMetadataService } from './api-metadata.service.js';

const ApiParams = z.object({ api: z.string().min(1) });
const KeyParams = ApiParams.extend({ key: z.string().min(1) });

/** `apis/{id}/metadata` and `apis/{id}/metadata/{key}`. */
export function apiMetadataRoutes(
  app: FastifyInstance,
  guards: PermissionGuards,
  metadata: ApiMetadataService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['API metadata'];

  r.get(
    '/apis/:api/metadata',
    {
      schema: { tags, summary: "The API's metadata over the platform defaults", params: ApiParams },
      preHandler: guards.require('api-metadata-r'),
    },
    async (request) => metadata.list(request.params.api),
  );

  r.post(
    '/apis/:api/metadata',
    {
      schema: {
        tags,
        summary: 'Add a metadata (its key comes from its name)',
        params: ApiParams,
        body: MetadataInput,
      },
      preHandler: guards.require('api-metadata-c'),
    },
    async (request, reply) =>
      reply.code(201).send(await metadata.create(currentUser(request), request.params.api, request.body)),
  );

  r.get(
    '/apis/:api/metadata/:key',
    {
      schema: { tags, summary: 'One metadata', params: KeyParams },
      preHandler: guards.require('api-metadata-r'),
    },
    async (request) => metadata.get(request.params.api, request.params.key),
  );

  r.put(
    '/apis/:api/metadata/:key',
    {
      schema: {
        tags,
        summary: 'Change a metadata (or override a default)',
        params: KeyParams,
        body: MetadataInput,
      },
      preHandler: guards.require('api-metadata-u'),
    },
    async (request) =>
      metadata.update(currentUser(request), request.params.api, request.params.key, request.body),
  );

  r.delete(
    '/apis/:api/metadata/:key',
    {
      schema: { tags, summary: "Delete the API's own value (a default comes back)", params: KeyParams },
      preHandler: guards.require('api-metadata-d'),
    },
    async (request, reply) => {
      await metadata.delete(currentUser(request), request.params.api, request.params.key);
      return reply.code(204).send();
    },
  );
}
