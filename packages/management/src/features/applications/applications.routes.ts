import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApplicationUpdate, NewApplication } from '@portico/model';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import type { ApplicationMembersService } from './application-members.service.js';
import { toApplicationJson, toFoundApplicationJson } from './applications.mapper.js';
import type { ApplicationService } from './applications.service.js';

const ApplicationParams = z.object({ application: z.string().min(1) });

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
    role: z.string().trim().min(1).max(64).optional(),
  })
  .refine((b) => b.id !== undefined || b.reference !== undefined, {
    message: 'A new primary owner is required.',
    path: ['id'],
  });

export interface ApplicationRouteDeps {
  guards: PermissionGuards;
  applications: ApplicationService;
  members: ApplicationMembersService;
}

/** The application calls of console-applications-and-settings.md section 7 (general and members). */
export function applicationsRoutes(app: FastifyInstance, deps: ApplicationRouteDeps): void {
  const { guards, applications, members } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Applications'];

  const json = async (row: Awaited<ReturnType<ApplicationService['get']>>) =>
    toApplicationJson(row, (await applications.owners([row.id])).get(row.id));

  // The spec writes `applications/`: the router ignores trailing slashes.
  r.get(
    '/applications',
    {
      schema: {
        tags,
        summary:
          "The user's applications (member directly or through a group; admins: all), by name; with " +
          '`query`, also the applications named so for who subscribes applications to APIs',
        querystring: z.object({
          query: z.string().max(200).optional(),
          group: z.string().min(1).optional(),
        }),
      },
      preHandler: requireUser,
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await applications.list(user, request.query);
      const own = new Set(rows.map((a) => a.id));
      const found = request.query.query
        ? (await applications.findByName(user, request.query.query, request.query.group)).filter(
            (a) => !own.has(a.id),
          )
        : [];
      const owners = await applications.owners([...rows, ...found].map((a) => a.id));
      const json = rows.map((a) => toApplicationJson(a, owners.get(a.id)));
      if (found.length === 0) return json;
      return [...json, ...found.map((a) => toFoundApplicationJson(a, owners.get(a.id)))].sort(
        (a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
      );
    },
  );

  r.post(
    '/applications',
    {
      schema: {
        tags,
        summary: 'Create an application (its creator becomes its primary owner)',
        body: NewApplication,
      },
      preHandler: guards.requireAny('portal-application-c', 'management-application-c'),
    },
    async (request, reply) => {
      const row = await applications.create(currentUser(request), request.body);
      return reply.code(201).send(await json(row));
    },
  );

  r.get(
    '/applications/:application',
    {
      schema: { tags, summary: 'One application', params: ApplicationParams },
      preHandler: guards.require('application-definition-r'),
    },
    async (request) => json(await applications.get(request.params.application)),
  );

  r.put(
    '/applications/:application',
    {
      schema: {
        tags,
        summary: 'Save name, description, groups and settings (the type stays)',
        params: ApplicationParams,
        body: ApplicationUpdate,
      },
      preHandler: guards.require('application-definition-u'),
    },
    async (request) =>
      json(await applications.update(currentUser(request), request.params.application, request.body)),
  );

  r.delete(
    '/applications/:application',
    {
      schema: {
        tags,
        summary: 'Delete (archive) the application: its subscriptions close and their keys are revoked',
        params: ApplicationParams,
      },
      preHandler: guards.require('application-definition-d'),
    },
    async (request, reply) => {
      await applications.archive(currentUser(request), request.params.application);
      return reply.code(204).send();
    },
  );

  const memberTags = ['Application members'];

  r.get(
    '/applications/:application/members',
    {
      schema: {
        tags: memberTags,
        summary: 'Direct members, then the members inherited from the application groups',
        params: ApplicationParams,
      },
      preHandler: guards.require('application-member-r'),
    },
    async (request) => members.list(request.params.application),
  );

  r.post(
    '/applications/:application/members',
    {
      schema: {
        tags: memberTags,
        summary: 'Add a member (application-member-c) or change its role (application-member-u)',
        params: ApplicationParams,
        body: MemberBody,
      },
      preHandler: guards.requireAny('application-member-c', 'application-member-u'),
    },
    // 201 for an addition or a change, and 200 for a removal, as Gravitee 1.x answers them.
    async (request, reply) =>
      reply
        .code(201)
        .send(await members.addOrUpdate(currentUser(request), request.params.application, request.body)),
  );

  r.delete(
    '/applications/:application/members',
    {
      schema: {
        tags: memberTags,
        summary: 'Remove a member (never the primary owner)',
        params: ApplicationParams,
        querystring: z.object({ user: z.string().min(1) }),
      },
      preHandler: guards.require('application-member-d'),
    },
    async (request, reply) => {
      await members.remove(currentUser(request), request.params.application, request.query.user);
      return reply.code(200).send();
    },
  );

  r.post(
    '/applications/:application/members/transfer_ownership',
    {
      schema: {
        tags: memberTags,
        summary: 'Make another user the primary owner (by the primary owner or an administrator)',
        params: ApplicationParams,
        body: TransferBody,
      },
      preHandler: guards.require('application-member-r'),
    },
    async (request, reply) => {
      await members.transferOwnership(currentUser(request), request.params.application, request.body);
      return reply.code(204).send();
    },
  );
}
