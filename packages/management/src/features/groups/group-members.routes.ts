import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import type { GroupAccess } from './group-access.js';
import { GroupInvitationsService } from './group-invitations.service.js';
import { GroupMembersService } from './group-members.service.js';
import { toGroupMemberJson, toInvitationJson } from './groups.mapper.js';
import type { GroupsDeps } from './groups.deps.js';

const GroupParams = z.object({ group: z.string() });
const InvitationParams = GroupParams.extend({ invitation: z.string() });
const RoleName = z.string().max(64).nullish();
const MembersBody = z
  .array(
    z.object({
      id: z.string().min(1).optional(),
      reference: z.string().min(1).optional(),
      roles: z.array(z.object({ scope: z.enum(['GROUP', 'API', 'APPLICATION']), name: z.string().max(64) })),
    }),
  )
  .min(1, 'at least one member is required');
const InvitationRolesBody = z.object({ api_role: RoleName, application_role: RoleName });
const NewInvitationBody = InvitationRolesBody.extend({
  email: z.email('must be an email address').max(320),
  reference_type: z.literal('GROUP').optional(),
  reference_id: z.string().optional(),
});

/** Members and invitations of a group (configuration/groups/{id}/members and /invitations). */
export function groupMembersRoutes(app: FastifyInstance, deps: GroupsDeps & { access: GroupAccess }): void {
  const { ctx, guards, access, audit } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const members = new GroupMembersService(ctx.db, access, audit, ctx.now);
  const invitations = new GroupInvitationsService({
    db: ctx.db,
    access,
    audit,
    mail: deps.mail,
    secret: deps.secret,
    portalUrl: ctx.options.portalUrl,
    now: ctx.now,
  });

  r.get(
    '/configuration/groups/:group/members',
    {
      schema: { tags: ['Groups'], summary: 'The members of a group with their roles', params: GroupParams },
      preHandler: guards.require('management-group-r'),
    },
    async (request) =>
      (await members.list(request.params.group)).map((m) => toGroupMemberJson(m.user, m.memberships)),
  );

  r.post(
    '/configuration/groups/:group/members',
    {
      schema: {
        tags: ['Groups'],
        summary:
          'Add or change members (management-group-u; a group ADMIN within max members, with system invitation on and role locks)',
        params: GroupParams,
        body: MembersBody,
      },
      preHandler: requireUser,
    },
    async (request, reply) => {
      const added = await members.addOrUpdate(currentUser(request).id, request.params.group, request.body);
      return reply.code(added ? 201 : 200).send();
    },
  );

  r.delete(
    '/configuration/groups/:group/members/:user',
    {
      schema: {
        tags: ['Groups'],
        summary: 'Remove a member from a group',
        params: GroupParams.extend({ user: z.string() }),
      },
      preHandler: requireUser,
    },
    async (request, reply) => {
      await members.remove(currentUser(request).id, request.params.group, request.params.user);
      return reply.code(200).send();
    },
  );

  r.get(
    '/configuration/groups/:group/invitations',
    {
      schema: {
        tags: ['Groups'],
        summary: 'The pending invitations of a group, by email',
        params: GroupParams,
      },
      preHandler: requireUser,
    },
    async (request) =>
      (await invitations.list(currentUser(request).id, request.params.group)).map(toInvitationJson),
  );

  r.post(
    '/configuration/groups/:group/invitations',
    {
      schema: {
        tags: ['Groups'],
        summary:
          "Invite an email: an existing user's email joins at once (204), any other is mailed a link to finish an account",
        params: GroupParams,
        body: NewInvitationBody,
      },
      preHandler: requireUser,
    },
    async (request, reply) => {
      const { email, ...roles } = request.body;
      const result = await invitations.invite(currentUser(request).id, request.params.group, email, roles);
      if ('member' in result) return reply.code(204).send();
      return reply.code(200).send(toInvitationJson(result.invitation));
    },
  );

  r.put(
    '/configuration/groups/:group/invitations/:invitation',
    {
      schema: {
        tags: ['Groups'],
        summary: 'Change the roles of a pending invitation',
        params: InvitationParams,
        body: InvitationRolesBody.passthrough(),
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { group, invitation } = request.params;
      return toInvitationJson(
        await invitations.update(currentUser(request).id, group, invitation, request.body),
      );
    },
  );

  r.delete(
    '/configuration/groups/:group/invitations/:invitation',
    {
      schema: { tags: ['Groups'], summary: 'Remove a pending invitation', params: InvitationParams },
      preHandler: requireUser,
    },
    async (request, reply) => {
      await invitations.remove(currentUser(request).id, request.params.group, request.params.invitation);
      return reply.code(204).send();
    },
  );
}
