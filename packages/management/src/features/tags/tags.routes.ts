import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EntrypointRow, TagRow } from '@portico/storage';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import type { TagsService } from './tags.service.js';

const TagBody = z.object({
  name: z
    .string({ error: (i) => (i.input === undefined ? 'Name is required.' : undefined) })
    .trim()
    .min(1, 'Name is required.')
    .max(64, 'The name has to be less than 64 characters long.'),
  description: z.string().max(4000).nullable().optional(),
  restricted_groups: z.array(z.string().min(1)).max(1000).optional(),
});
const EntrypointValue = z
  .string({ error: (i) => (i.input === undefined ? 'Value is required.' : undefined) })
  .trim()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http(s) URL');
const EntrypointBody = z.object({
  value: EntrypointValue,
  tags: z.array(z.string().min(1)).min(1, 'at least one sharding tag is needed').max(100),
});
const Id = z.object({ id: z.string().min(1) });

export const toTagJson = (row: TagRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  restricted_groups: JSON.parse(row.restricted_groups) as string[],
});
export const toEntrypointJson = (row: EntrypointRow) => ({
  id: row.id,
  value: row.value,
  tags: JSON.parse(row.tags) as string[],
});

/** `configuration/tags`, `configuration/entrypoints` and the portal's `entrypoints`. */
export function tagsRoutes(app: FastifyInstance, tags: TagsService, guards: PermissionGuards): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/configuration/tags',
    {
      schema: { tags: ['Sharding tags'], summary: 'Every sharding tag' },
      preHandler: guards.require('management-tag-r'),
    },
    async () => (await tags.listTags()).map(toTagJson),
  );
  r.get(
    '/configuration/tags/:id',
    {
      schema: { tags: ['Sharding tags'], summary: 'One sharding tag', params: Id },
      preHandler: guards.require('management-tag-r'),
    },
    async (request) => toTagJson(await tags.getTag(request.params.id)),
  );
  r.post(
    '/configuration/tags',
    {
      schema: { tags: ['Sharding tags'], summary: 'Create a sharding tag', body: TagBody },
      preHandler: guards.require('management-tag-c'),
    },
    async (request) => toTagJson(await tags.createTag(currentUser(request), request.body)),
  );
  r.put(
    '/configuration/tags/:id',
    {
      schema: { tags: ['Sharding tags'], summary: 'Update a sharding tag', params: Id, body: TagBody },
      preHandler: guards.require('management-tag-u'),
    },
    async (request) => toTagJson(await tags.updateTag(currentUser(request), request.params.id, request.body)),
  );
  r.delete(
    '/configuration/tags/:id',
    {
      schema: { tags: ['Sharding tags'], summary: 'Delete a sharding tag', params: Id },
      preHandler: guards.require('management-tag-d'),
    },
    async (request, reply) => {
      await tags.deleteTag(currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );

  r.get(
    '/configuration/entrypoints',
    { schema: { tags: ['Entrypoints'], summary: 'Every entrypoint' }, preHandler: requireUser },
    async () => (await tags.listEntrypoints()).map(toEntrypointJson),
  );
  r.get(
    '/configuration/entrypoints/:id',
    { schema: { tags: ['Entrypoints'], summary: 'One entrypoint', params: Id }, preHandler: requireUser },
    async (request) => toEntrypointJson(await tags.getEntrypoint(request.params.id)),
  );
  r.post(
    '/configuration/entrypoints',
    {
      schema: { tags: ['Entrypoints'], summary: 'Create an entrypoint', body: EntrypointBody },
      preHandler: guards.require('management-entrypoint-c'),
    },
    async (request) => toEntrypointJson(await tags.createEntrypoint(currentUser(request), request.body)),
  );
  r.put(
    '/configuration/entrypoints',
    {
      schema: {
        tags: ['Entrypoints'],
        summary: 'Update an entrypoint (the full object)',
        body: EntrypointBody.extend({ id: z.string().min(1) }),
      },
      preHandler: guards.require('management-entrypoint-u'),
    },
    async (request) =>
      toEntrypointJson(await tags.updateEntrypoint(currentUser(request), request.body.id, request.body)),
  );
  r.put(
    '/configuration/entrypoints/:id',
    {
      schema: { tags: ['Entrypoints'], summary: 'Update an entrypoint', params: Id, body: EntrypointBody },
      preHandler: guards.require('management-entrypoint-u'),
    },
    async (request) =>
      toEntrypointJson(await tags.updateEntrypoint(currentUser(request), request.params.id, request.body)),
  );
  r.delete(
    '/configuration/entrypoints/:id',
    {
      schema: { tags: ['Entrypoints'], summary: 'Delete an entrypoint', params: Id },
      preHandler: guards.require('management-entrypoint-d'),
    },
    async (request, reply) => {
      await tags.deleteEntrypoint(currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );

  r.get(
    '/entrypoints',
    { schema: { tags: ['Portal'], summary: 'The entrypoints, for the portal' } },
    async () => (await tags.listEntrypoints()).map(toEntrypointJson),
  );
}
