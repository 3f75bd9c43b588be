import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionMap } from '@portico/model';
import { PERMISSIONS, ROLE_SCOPES, notFound } from '@portico/model';
import type { RoleRow } from '@portico/storage';
import { findRole, findRolesByScope } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import type { PermissionService } from '../permissions/permissions.service.js';

export function toRoleJson(row: RoleRow) {
  return {
    name: row.name,
    scope: row.scope,
    description: row.description,
    default: row.is_default === 1,
    system: row.is_system === 1,
    permissions: JSON.parse(row.permissions) as PermissionMap,
  };
}

const Scope = z.enum(ROLE_SCOPES);

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
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
      schema: { tags: ['Roles'], summary: 'One role', params: z.object({ scope: Scope, role: z.string() }) },
      preHandler: guards.require('management-role-r'),
    },
    async (request) => {
      const role = await findRole(ctx.db, request.params.scope, request.params.role);
      if (!role) throw notFound('Role', `${request.params.scope}:${request.params.role}`);
      return toRoleJson(role);
    },
  );

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
