import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ROLE_SCOPES } from '@portico/model';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import { RoleMembersService, platformScope } from './role-members.service.js';
import { toRoleMemberJson } from './roles.mapper.js';

const RoleParams = z.object({ scope: z.enum(ROLE_SCOPES), role: z.string() });

/** Members of MANAGEMENT and PORTAL roles: list, give the role to a user, take it back. */
export function roleMembersRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  guards: PermissionGuards,
  audit: AuditService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const members = new RoleMembersService(ctx.db, audit, ctx.now);

  r.get(
    '/configuration/rolescopes/:scope/roles/:role/users',
    {
      schema: {
        tags: ['Roles'],
        summary: 'The users given a MANAGEMENT or PORTAL role, by display name',
        params: RoleParams,
      },
      preHandler: guards.require('management-role-r'),
    },
    async (request) => {
      const { scope, role } = request.params;
      if (scope !== 'MANAGEMENT' && scope !== 'PORTAL') return [];
      return (await members.members(scope, role)).map(toRoleMemberJson);
    },
  );

  r.post(
    '/configuration/rolescopes/:scope/roles/:role/users',
    {
      schema: {
        tags: ['Roles'],
        summary: "Give a MANAGEMENT or PORTAL role to a user (replaces the user's role of that scope)",
        params: RoleParams,
        body: z.object({ id: z.string().min(1).optional(), reference: z.string().min(1).optional() }),
      },
      preHandler: [guards.require('management-role-c'), guards.require('management-role-u')],
    },
    async (request, reply) => {
      const { scope, role } = request.params;
      await members.add(currentUser(request).id, platformScope(scope), role, request.body);
      return reply.code(201).send();
    },
  );

  r.delete(
    '/configuration/rolescopes/:scope/roles/:role/users/:user',
    {
      schema: {
        tags: ['Roles'],
        summary: "Take a MANAGEMENT or PORTAL role from a user, who then has the scope's default role",
        params: RoleParams.extend({ user: z.string() }),
      },
      preHandler: guards.require('management-role-d'),
    },
    async (request, reply) => {
      const { scope, role, user } = request.params;
      await members.remove(currentUser(request).id, platformScope(scope), role, user);
      return reply.code(204).send();
    },
  );
}
