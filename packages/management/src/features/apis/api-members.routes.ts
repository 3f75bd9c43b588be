import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { ApiMembersService } from './api-members.service.js';

const ApiParams = z.object({ api: z.string().min(1) });

/** The user by `id`, or by `reference` (the username), and the role. */
const MemberBody = z
  .object({
    id: z.string().min(1).optional(),
    reference: z.string().min(1).optional(),
    role: z.string().trim().min(1, 'A role is required.').max(64),
  })
  .refine((b) => b.id !== undefined || b.reference !== undefined, {
    message: 'A user is required.',
    path: ['id'],
  });

const TransferBody = z
  .object({
    id: z.string().min(1).optional(),
    reference: z.string().min(1).optional(),
    /** The role the previous primary owner keeps (the default API role when absent). */
    role: z.string().trim().min(1).max(64).optional(),
  })
  .refine((b) => b.id !== undefined || b.reference !== undefined, {
    message: 'A new primary owner is required.',
    path: ['id'],
  });

/** `apis/{id}/members`, `apis/{id}/members/transfer_ownership`, `apis/{id}/groups`. */
export function apiMembersRoutes(
  app: FastifyInstance,
  guards: PermissionGuards,
  members: ApiMembersService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/apis/:api/members',
    {
      schema: {
        tags: ['API members'],
        summary: 'Direct members, then the members inherited from the API groups (with their group)',
        params: ApiParams,
      },
      preHandler: guards.require('api-member-r'),
    },
    async (request) => members.list(request.params.api),
  );

  r.post(
    '/apis/:api/members',
    {
      schema: {
        tags: ['API members'],
        summary: 'Add a member (api-member-c) or change its role (api-member-u)',
        params: ApiParams,
        body: MemberBody,
      },
      preHandler: guards.requireAny('api-member-c', 'api-member-u'),
    },
    // 201 for an addition or a change, and 200 for a removal, as Gravitee 1.x answers them.
    async (request, reply) =>
      reply.code(201).send(await members.addOrUpdate(currentUser(request), request.params.api, request.body)),
  );

  r.delete(
    '/apis/:api/members',
    {
      schema: {
        tags: ['API members'],
        summary: 'Remove a member (never the primary owner)',
        params: ApiParams,
        querystring: z.object({ user: z.string().min(1) }),
      },
      preHandler: guards.require('api-member-d'),
    },
    async (request, reply) => {
      await members.remove(currentUser(request), request.params.api, request.query.user);
      return reply.code(200).send();
    },
  );

  r.post(
    '/apis/:api/members/transfer_ownership',
    {
      schema: {
        tags: ['API members'],
        summary: 'Make another user the primary owner (by the primary owner or an administrator)',
        params: ApiParams,
        body: TransferBody,
      },
      preHandler: guards.require('api-member-r'),
    },
    async (request, reply) => {
      await members.transferOwnership(currentUser(request), request.params.api, request.body);
      return reply.code(204).send();
    },
  );

  r.get(
    '/apis/:api/groups',
    {
      schema: {
        tags: ['API members'],
        summary: 'The groups of the API with their members holding an API role',
        params: ApiParams,
      },
      preHandler: guards.require('api-member-r'),
    },
    async (request) => members.groups(request.params.api),
  );
}
