import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import { UsersAdminService } from './users-admin.service.js';

const UserParams = z.object({ user: z.string() });

/** Deleting a user, and the groups, APIs and applications a user belongs to (user detail screen). */
export function usersAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  guards: PermissionGuards,
  audit: AuditService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const users = new UsersAdminService(ctx.db, audit, ctx.now);

  r.delete(
    '/users/:user',
    {
      schema: {
        tags: ['Users'],
        summary: 'Delete a user who is the primary owner of no API nor application',
        params: UserParams,
      },
      preHandler: guards.require('management-user-d'),
    },
    async (request, reply) => {
      await users.remove(currentUser(request).id, request.params.user);
      return reply.code(204).send();
    },
  );

  r.get(
    '/users/:user/groups',
    {
      schema: {
        tags: ['Users'],
        summary: "A user's groups, with the user's roles in each",
        params: UserParams,
      },
      preHandler: guards.require('management-user-r'),
    },
    async (request) => users.groups(request.params.user),
  );

  r.get(
    '/users/:user/memberships',
    {
      schema: {
        tags: ['Users'],
        summary: "A user's APIs or applications (directly or through groups), with their metadata by id",
        params: UserParams,
        querystring: z.object({
          type: z.preprocess(
            (v) => (typeof v === 'string' ? v.toLowerCase() : v),
            z.enum(['api', 'application']),
          ),
        }),
      },
      preHandler: guards.require('management-user-r'),
    },
    async (request) => users.memberships(request.params.user, request.query.type),
  );
}
