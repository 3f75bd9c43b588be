import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth.js';
import { GroupAccess } from './group-access.js';
import { groupMembersRoutes } from './group-members.routes.js';
import { GROUP_EVENTS, toGroupJson } from './groups.mapper.js';
import { GroupsService } from './groups.service.js';
import type { GroupsDeps } from './groups.deps.js';

export type { GroupsDeps } from './groups.deps.js';

const GroupParams = z.object({ group: z.string() });
const RoleName = z.string().max(64).nullish();
export const GroupBody = z.object({
  name: z
    .string({ error: 'Group name is required.' })
    .trim()
    .min(1, 'Group name is required.')
    .max(50, 'The group name has to be less than 50 characters long.'),
  roles: z.object({ API: RoleName, APPLICATION: RoleName }).nullish(),
  event_rules: z.array(z.object({ event: z.enum(GROUP_EVENTS) })).nullish(),
  max_invitation: z.number().int().min(0).max(99999).nullish(),
  lock_api_role: z.boolean().optional(),
  lock_application_role: z.boolean().optional(),
  system_invitation: z.boolean().optional(),
  email_invitation: z.boolean().optional(),
});
const Type = z.object({ type: z.enum(['api', 'application']) });

const input = (body: z.infer<typeof GroupBody>) => ({
  ...body,
  roles: body.roles ?? undefined,
  event_rules: body.event_rules ?? undefined,
});

/** Groups (configuration/groups): list, read, create, update, delete, dependents, associate to all. */
export function groupsRoutes(app: FastifyInstance, deps: GroupsDeps): void {
  const { ctx, guards, audit } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = new GroupAccess(ctx.db, deps.permissions);
  const groups = new GroupsService(ctx.db, access, audit, ctx.now);

  r.get(
    '/configuration/groups',
    {
      schema: { tags: ['Groups'], summary: 'Every group by name, each saying whether the caller manages it' },
      preHandler: guards.require('management-group-r'),
    },
    async (request) =>
      (await groups.list(currentUser(request).id)).map((g) => toGroupJson(g.group, g.manageable)),
  );

  r.get(
    '/configuration/groups/:group',
    {
      schema: { tags: ['Groups'], summary: 'One group', params: GroupParams },
      preHandler: guards.require('management-group-r'),
    },
    async (request) => {
      const { group, manageable } = await groups.get(currentUser(request).id, request.params.group);
      return toGroupJson(group, manageable);
    },
  );

  r.post(
    '/configuration/groups',
    {
      schema: { tags: ['Groups'], summary: 'Create a group', body: GroupBody },
      preHandler: guards.require('management-group-c'),
    },
    async (request, reply) => {
      const row = await groups.create(currentUser(request).id, input(request.body));
      return reply.code(201).send(toGroupJson(row, true));
    },
  );

  r.put(
    '/configuration/groups/:group',
    {
      schema: {
        tags: ['Groups'],
        summary:
          'Update a group (management-group-u, or an ADMIN of the group, who keeps its options, max members and locked roles)',
        params: GroupParams,
        body: GroupBody,
      },
      preHandler: guards.requireAny('management-group-u', 'management-group-r'),
    },
    async (request) =>
      toGroupJson(
        await groups.update(currentUser(request).id, request.params.group, input(request.body)),
        true,
      ),
  );

  r.delete(
    '/configuration/groups/:group',
    {
      schema: {
        tags: ['Groups'],
        summary: 'Delete a group: its members, invitations and its place on APIs and applications go',
        params: GroupParams,
      },
      preHandler: guards.require('management-group-d'),
    },
    async (request, reply) => {
      await groups.remove(currentUser(request).id, request.params.group);
      return reply.code(204).send();
    },
  );

  r.get(
    '/configuration/groups/:group/memberships',
    {
      schema: {
        tags: ['Groups'],
        summary: 'The APIs (type=api) or applications (type=application) of the group',
        params: GroupParams,
        querystring: Type,
      },
      preHandler: guards.require('management-group-r'),
    },
    async (request) => groups.dependents(request.params.group, request.query.type),
  );

  r.post(
    '/configuration/groups/:group/memberships',
    {
      schema: {
        tags: ['Groups'],
        summary: 'Associate the group to every existing API (type=api) or application (type=application)',
        params: GroupParams,
        querystring: Type,
      },
      preHandler: guards.require('management-group-u'),
    },
    async (request) =>
      toGroupJson(
        await groups.associate(currentUser(request).id, request.params.group, request.query.type),
        true,
      ),
  );

  groupMembersRoutes(app, { ...deps, access });
}
