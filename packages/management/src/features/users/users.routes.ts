import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, notFound, toPage } from '@portico/model';
import { findPrimaryOwnerIds, findUserById, searchUsers } from '@portico/storage';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { PageQuery } from '../../http/paging.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { avatarOf } from './avatar.js';
import { maySeeUserContacts } from './contact-visibility.js';
import { Password } from './password-policy.js';
import type { RegistrationService } from './registration.service.js';
import { toUserJson } from './users.mapper.js';

const UserParams = z.object({ user: z.string() });
const Name = z.string().trim().min(1).max(64);
const NewAccountBody = z.object({ firstname: Name, lastname: Name, email: z.email().max(320) });
/** `POST users`: only the email is needed (as Gravitee 1.x); the display name falls back to it. */
const NewUserBody = NewAccountBody.partial({ firstname: true, lastname: true });

export interface UsersRouteDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  permissions: PermissionService;
  registration: RegistrationService;
  settings: SettingsService;
}

/** Users of the platform (administration), user search, registration and password reset. */
export function usersRoutes(app: FastifyInstance, deps: UsersRouteDeps): void {
  const { ctx, guards, permissions, registration, settings } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const loadUser = async (id: string) => {
    const user = await findUserById(ctx.db, id);
    if (!user || user.status === 'ARCHIVED') throw notFound('User', id);
    return user;
  };

  r.get(
    '/users',
    {
      schema: {
        tags: ['Users'],
        summary: 'Search users',
        querystring: PageQuery.extend({ q: z.string().optional() }),
      },
      preHandler: guards.require('management-user-r'),
    },
    async (request) => {
      const { page, size, q } = request.query;
      const { rows, total } = await searchUsers(ctx.db, {
        text: q?.trim() || undefined,
        offset: (page - 1) * size,
        limit: size,
      });
      const owners = await findPrimaryOwnerIds(
        ctx.db,
        rows.map((u) => u.id),
      );
      return toPage(
        rows.map((u) => ({ ...toUserJson(u), primary_owner: owners.has(u.id) })),
        page,
        size,
        total,
      );
    },
  );

  r.get(
    '/users/:user',
    {
      schema: { tags: ['Users'], summary: 'One user, with roles', params: UserParams },
      preHandler: guards.require('management-user-r'),
    },
    async (request) => {
      const user = await loadUser(request.params.user);
      const [access, owners] = await Promise.all([
        permissions.access(user.id),
        findPrimaryOwnerIds(ctx.db, [user.id]),
      ]);
      return {
        ...toUserJson(user),
        primary_owner: owners.has(user.id),
        roles: access.roles.map((role) => ({ scope: role.scope, name: role.name })),
      };
    },
  );

  r.post(
    '/users',
    {
      schema: {
        tags: ['Users'],
        summary: 'Create a user (only the email is required); a mail invites them to choose a password',
        body: NewUserBody,
      },
      preHandler: guards.require('management-user-c'),
    },
    async (request, reply) => {
      const user = await registration.register(request.body, currentUser(request).id);
      return reply.code(201).send(toUserJson(user));
    },
  );

  r.get(
    '/users/:user/avatar',
    { schema: { tags: ['Users'], summary: "A user's picture", params: UserParams } },
    async (request, reply) => {
      const avatar = avatarOf(await loadUser(request.params.user));
      return reply
        .header('Content-Type', avatar.type)
        .header('Cache-Control', 'public, max-age=300')
        .send(avatar.body);
    },
  );

  r.post(
    '/users/:user/resetPassword',
    {
      schema: {
        tags: ['Users'],
        summary: 'Mail the user a link to choose a new password',
        params: UserParams,
      },
      preHandler: guards.require('management-user-u'),
    },
    async (request, reply) => {
      await registration.requestPasswordReset(await loadUser(request.params.user), currentUser(request).id);
      return reply.code(204).send();
    },
  );

  r.post(
    '/users/:user/changePassword',
    {
      schema: {
        tags: ['Users'],
        summary: 'Choose a new password with the token of a reset link',
        params: UserParams,
        body: z.object({ token: z.string().min(1), password: Password }),
      },
    },
    async (request, reply) => {
      await registration.changePassword(request.params.user, request.body);
      return reply.code(204).send();
    },
  );

  r.post(
    '/users/registration',
    {
      schema: {
        tags: ['Users'],
        summary: 'Self-registration: mails a link to finish the account',
        body: NewAccountBody,
      },
    },
    async (request, reply) => {
      if (!(await settings.value<boolean>('portal.userCreation.enabled'))) {
        throw new DomainError(403, 'User registration is disabled', 'USER_CREATION_DISABLED');
      }
      const user = await registration.register(request.body, undefined, request.ip);
      return reply.code(201).send(toUserJson(user));
    },
  );

  r.post(
    '/users/registration/finalize',
    {
      schema: {
        tags: ['Users'],
        summary: 'Finish a registration: choose the password',
        body: z.object({ token: z.string().min(1), password: Password, firstname: Name, lastname: Name }),
      },
    },
    async (request) => toUserJson(await registration.finalize(request.body)),
  );

  r.get(
    '/search/users',
    {
      schema: {
        tags: ['Users'],
        summary:
          'Find users by name or email (member dialogs); emails only for callers who manage users or members somewhere',
        querystring: z.object({ q: z.string().trim().min(1) }),
      },
      preHandler: requireUser,
    },
    async (request) => {
      const [{ rows }, contacts] = await Promise.all([
        searchUsers(ctx.db, { text: request.query.q, offset: 0, limit: 20 }),
        maySeeUserContacts(ctx.db, permissions, currentUser(request).id),
      ]);
      return rows
        .filter((u) => u.status === 'ACTIVE')
        .map((u) => ({
          id: u.id,
          reference: u.id,
          firstname: u.firstname,
          lastname: u.lastname,
          displayName: toUserJson(u).displayName,
          ...(contacts ? { email: u.email } : {}),
        }));
    },
  );
}
