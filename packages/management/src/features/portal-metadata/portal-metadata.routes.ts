import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MetadataInput } from '@portico/model';
import type { MetadataRow } from '@portico/storage';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { PortalMetadataService } from './portal-metadata.service.js';

const toJson = (row: MetadataRow) => ({
  key: row.key,
  name: row.name,
  format: row.format.toLowerCase(),
  value: row.value,
  defaultValue: row.value,
});

/** `configuration/metadata` (console-applications-and-settings.md 7): the global metadata. */
export function portalMetadataRoutes(
  app: FastifyInstance,
  metadata: PortalMetadataService,
  guards: PermissionGuards,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/configuration/metadata',
    {
      schema: { tags: ['Metadata'], summary: 'The global metadata' },
      preHandler: guards.require('portal-metadata-r'),
    },
    async () => (await metadata.list()).map(toJson),
  );
  r.post(
    '/configuration/metadata',
    {
      schema: {
        tags: ['Metadata'],
        summary: 'Create a global metadata (key from the name)',
        body: MetadataInput,
      },
      preHandler: guards.require('portal-metadata-c'),
    },
    async (request) => toJson(await metadata.create(currentUser(request), request.body)),
  );
  r.put(
    '/configuration/metadata',
    {
      schema: {
        tags: ['Metadata'],
        summary: 'Update a global metadata (by its key)',
        body: MetadataInput.and(z.object({ key: z.string().min(1) })),
      },
      preHandler: guards.require('portal-metadata-u'),
    },
    async (request) => toJson(await metadata.update(currentUser(request), request.body.key, request.body)),
  );
  r.delete(
    '/configuration/metadata/:key',
    {
      schema: {
        tags: ['Metadata'],
        summary: 'Delete a global metadata',
        params: z.object({ key: z.string().min(1) }),
      },
      preHandler: guards.require('portal-metadata-d'),
    },
    async (request, reply) => {
      await metadata.delete(currentUser(request), request.params.key);
      return reply.code(204).send();
    },
  );
}
