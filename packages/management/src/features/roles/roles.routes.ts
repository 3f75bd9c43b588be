import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionMap } from '@portico/model';
import { PERMISSIONS, RIGHTS, ROLE_SCOPES } from '@portico/model';
import { findRole, findRolesByScope } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { roleMembersRoutes } from './role-members.routes.js';
import { toRoleJson } from './roles.mapper.js';
import { RolesService, roleNotFound } from './roles.service.js';

export { toRoleJson } from './roles.mapper.js';

const Scope = z.enum(ROLE_SCOPES);
const RoleParams = z.object({ scope: Scope, role: z.string() });
const RoleFields = {
  description: z.string().max(512).nullish(),
  default: z.boolean().optional(),
  /** Permission name to rights: `{ "PLAN": ["C", "R"] }`. */
  permissions: z.record(z.string(), z.array(z.enum(RIGHTS))).optional(),
  scope: Scope.optional(),
};
const NewRoleBody = z.object({ name: z.string().trim().min(1).max(64), ...RoleFields });
const RoleBody = z.object({ name: z.string().optional(), ...RoleFields });

/** Letters form of a permission map, as `members/permissions` answers it: `{ "PLAN": "CRUD" }`. */
function toLetters(map: PermissionMap): Record<string, string> {
  return Object.fromEntries(
    Object.entries(map)
      .filter(([, r]) => r.length > 0)
      .map(([p, rights]) => [p, rights.join('')]),
  );
}

/** Role scopes and roles (read side), and the current user's permissions on an API or application. */
export function rolesRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  guards: PermissionGuards,
  permissions: PermissionService,
  audit: AuditService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const roles = new RolesService(ctx.db, audit, ctx.now);

  r.get(
    '/configuration/rolescopes',
    {
      schema: { tags: ['Roles'], summary: 'Every scope with its permission names' },
      preHandler: guards.require('management-role-r'),
    },
    async () => PERMISSIONS,
  );

  r.get(
    '/configuration/rolescopes/:scope/roles',
    {
      schema: { tags: ['Roles'], summary: 'The roles of a scope', params: z.object({ scope: Scope }) },
      preHandler: requireUser,
    },
    async (request) => (await findRolesByScope(ctx.db, request.params.scope)).map(toRoleJson),
  );

  r.get(
    '/configuration/rolescopes/:scope/roles/:role',
    {
      schema: { tags: ['Roles'], summary: 'One role', params: RoleParams },
      preHandler: guards.require('management-role-r'),
    },
    async (request) => {
      const role = await findRole(ctx.db, request.params.scope, request.params.role);
      if (!role) throw roleNotFound(request.params.scope, request.params.role);
      return toRoleJson(role);
    },
  );

  r.post(
    '/configuration/rolescopes/:scope/roles',
    {
      schema: {
        tags: ['Roles'],
        summary: 'Create a role (its name is upper-cased, spaces become underscores)',
        params: z.object({ scope: Scope }),
        body: NewRoleBody,
      },
      preHandler: guards.require('management-role-c'),
    },
    async (request, reply) => {
      const { name, ...input } = request.body;
      const row = await roles.create(currentUser(request).id, request.params.scope, name, input);
      return reply.code(201).send(toRoleJson(row));
    },
  );

  r.put(
    '/configuration/rolescopes/:scope/roles/:role',
    {
      schema: {
        tags: ['Roles'],
        summary: 'Update a role (not a system role): description, default flag, permissions',
        params: RoleParams,
        body: RoleBody,
      },
      preHandler: guards.require('management-role-u'),
    },
    async (request) =>
      toRoleJson(
        await roles.update(currentUser(request).id, request.params.scope, request.params.role, request.body),
      ),
  );

  r.delete(
    '/configuration/rolescopes/:scope/roles/:role',
    {
      schema: {
        tags: ['Roles'],
        summary: "Delete a role (not a system or default role); its holders get the scope's default role",
        params: RoleParams,
      },
      preHandler: guards.require('management-role-d'),
    },
    async (request, reply) => {
      await roles.remove(currentUser(request).id, request.params.scope, request.params.role);
      return reply.code(204).send();
    },
  );

  roleMembersRoutes(app, ctx, guards, audit);

  r.get(
    '/apis/:api/members/permissions',
    {
      schema: {
        tags: ['APIs'],
        summary: "The current user's permissions on an API",
        params: z.object({ api: z.string() }),
      },
      preHandler: requireUser,
    },
    async (request) =>
      toLetters(await permissions.referencePermissions(currentUser(request).id, 'API', request.params.api)),
  );

  r.get(
    '/applications/:application/members/permissions',
    {
      schema: {
        tags: ['Applications'],
        summary: "The current user's permissions on an application",
        params: z.object({ application: z.string() }),
      },
      preHandler: requireUser,
    },
    async (request) =>
      toLetters(
        await permissions.referencePermissions(
          currentUser(request).id,
          'APPLICATION',
          request.params.application,
        ),
      ),
  );
}
