import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { TenantsService } from './tenants.service.js';

const Name = z
  .string({ error: (i) => (i.input === undefined ? 'Name is required.' : undefined) })
  .trim()
  .min(1, 'Name is required.')
  .max(30, 'The name has to be less than 30 characters long.');
const Description = z
  .string()
  .max(160, 'The description has to be less than 160 characters long.')
  .nullable();
const NewTenants = z
  .array(z.object({ name: Name, description: Description.optional() }))
  .min(1)
  .max(1000);
const UpdatedTenants = z
  .array(z.object({ id: z.string().min(1), name: Name, description: Description.optional() }))
  .min(1)
  .max(1000);

/** `configuration/tenants` (console-applications-and-settings.md 7). */
export function tenantsRoutes(app: FastifyInstance, tenants: TenantsService, guards: PermissionGuards): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/configuration/tenants',
    {
      schema: { tags: ['Tenants'], summary: 'Every tenant' },
      preHandler: guards.require('management-tenant-r'),
    },
    async () => tenants.list(),
  );
  r.post(
    '/configuration/tenants',
    {
      schema: { tags: ['Tenants'], summary: 'Create tenants', body: NewTenants },
      preHandler: guards.require('management-tenant-c'),
    },
    async (request) => tenants.create(currentUser(request), request.body),
  );
  r.put(
    '/configuration/tenants',
    {
      schema: { tags: ['Tenants'], summary: 'Update tenants', body: UpdatedTenants },
      preHandler: guards.require('management-tenant-u'),
    },
    async (request) => tenants.update(currentUser(request), request.body),
  );
  r.delete(
    '/configuration/tenants/:id',
    {
      schema: { tags: ['Tenants'], summary: 'Delete a tenant', params: z.object({ id: z.string().min(1) }) },
      preHandler: guards.require('management-tenant-d'),
    },
    async (request, reply) => {
      await tenants.delete(currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
