import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound, toPage, wrongCredentials } from '@portico/model';
import {
  deleteNotificationsOfUser,
  findNotificationsOfUser,
  findUserById,
  revokeSession,
} from '@portico/storage';
import type { AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { assertIfMatch, etagOf, sendEtag } from '../../http/etag.js';
import { PageQuery } from '../../http/paging.js';
import type { SessionTokens } from '../auth/session.js';
import { SESSION_COOKIE } from '../auth/session.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { userTasks } from '../tasks/tasks.service.js';
import { avatarOf } from '../users/avatar.js';
import { Password } from '../users/password-policy.js';
import { toUserJson } from '../users/users.mapper.js';
import type { UserService } from './user.service.js';
import type { SocialLoginService } from '../social-login/social-login.service.js';

const TokenJson = z.object({ type: z.literal('BEARER'), token: z.string() });

/** `POST user/changePassword`: the current password and the new one (the registration's policy). */
export const ChangePasswordBody = z.object({
  old_password: z.string().min(1).max(1024),
  password: Password,
});
const ErrorJson = z.object({ message: z.string(), http_status: z.number(), field: z.string().optional() });

const ProfileBody = z.object({
  username: z.string().optional(),
  firstname: z.string().trim().min(1).max(64).optional(),
  lastname: z.string().trim().min(1).max(64).optional(),
  email: z.email().max(320).optional(),
  picture: z.string().max(1_500_000).nullable().optional(),
});

export interface UserRouteDeps {
  ctx: AppContext;
  social: SocialLoginService;
  users: UserService;
  permissions: PermissionService;
  tokens: SessionTokens;
}

/** The current user and the session: `user/login`, `user/logout`, `user`, avatar, tags, tasks, notifications. */
export function userRoutes(
  app: FastifyInstance,
  { ctx, users, permissions, tokens, social }: UserRouteDeps,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const setSessionCookie = (reply: FastifyReply, token: string | null) =>
    reply.setCookie(SESSION_COOKIE, token ?? '', {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.options.secureCookie,
      ...(token ? { maxAge: ctx.options.sessionTtlSeconds } : { maxAge: 0 }),
    });

  r.post(
    '/user/login',
    {
      schema: {
        tags: ['User'],
        summary:
          'Sign in with a Basic authorization header; answers a bearer token and sets the session cookie',
        response: { 200: TokenJson },
      },
    },
    async (request, reply) => {
      // The Basic credentials were checked (and throttled) with every call's session: see installSessions.
      if (!request.user || !request.basicCredentials) throw wrongCredentials();
      const user = await users.recordLogin(request.user);
      const { token, session } = await tokens.issue(user.id);
      setSessionCookie(reply, token);
      void reply.header('X-Xsrf-Token', tokens.xsrfToken(session));
      return { type: 'BEARER' as const, token };
    },
  );

  r.post(
    '/auth/oauth2/:provider',
    {
      schema: {
        tags: ['User'],
        summary:
          'Sign in with a social identity provider: exchanges the authorization code, opens the session',
        params: z.object({ provider: z.string() }),
        body: z.object({
          code: z.string().min(1),
          state: z.string().min(1),
          nonce: z.string().optional(),
          redirect_uri: z.url(),
        }),
        response: { 200: TokenJson },
      },
    },
    async (request, reply) => {
      const user = await social.authenticate(request.params.provider, request.body);
      const { token, session } = await tokens.issue(user.id);
      setSessionCookie(reply, token);
      void reply.header('X-Xsrf-Token', tokens.xsrfToken(session));
      return { type: 'BEARER' as const, token };
    },
  );

  r.post(
    '/user/logout',
    {
      schema: {
        tags: ['User'],
        summary: 'Sign out: ends the session (its token is refused from now on) and clears the cookie',
      },
    },
    async (request, reply) => {
      if (request.session) {
        await revokeSession(ctx.db, request.session.sessionId, request.session.expiresAt, ctx.now());
      }
      setSessionCookie(reply, null);
      return reply.code(204).send();
    },
  );

  const userWithAccess = async (userId: string) => {
    const user = await findUserById(ctx.db, userId);
    if (!user) throw notFound('User', userId);
    const access = await permissions.access(userId);
    return {
      user,
      json: {
        ...toUserJson(user),
        roles: access.roles.map((role) => ({
          scope: role.scope,
          name: role.name,
          permissions: role.permissions,
        })),
        permissions: access.permissions,
      },
    };
  };

  r.get(
    '/user',
    {
      schema: { tags: ['User'], summary: 'The signed-in user, with roles and permissions' },
      preHandler: requireUser,
    },
    async (request, reply) => {
      const { user, json } = await userWithAccess(currentUser(request).id);
      sendEtag(reply, etagOf(user.updated_at));
      return json;
    },
  );

  r.put(
    '/user',
    {
      schema: {
        tags: ['User'],
        summary:
          'Update the own profile (names, email, picture): only the fields that differ are written; If-Match: 412 when stale',
        body: ProfileBody,
      },
      preHandler: requireUser,
    },
    async (request, reply) => {
      const user = currentUser(request);
      assertIfMatch(request, etagOf(user.updated_at));
      // With If-Match, the write itself checks that nobody changed the user since (412 otherwise).
      const expectedVersion = request.headers['if-match'] !== undefined ? user.updated_at : undefined;
      const updated = await users.updateProfile(user, request.body, expectedVersion);
      const { json } = await userWithAccess(updated.id);
      sendEtag(reply, etagOf(updated.updated_at));
      return json;
    },
  );

  r.post(
    '/user/changePassword',
    {
      schema: {
        tags: ['User'],
        summary: "Change one's own password, giving the current one; the user's other sessions end",
        description:
          "Users of the product's own user store only (400 naming `source` otherwise). A wrong " +
          "`old_password` answers 400 'Wrong current password' naming `old_password`, and counts as a " +
          'failed sign-in (429 with Retry-After when repeated). `password` follows the registration ' +
          'policy (8 to 128 characters). The session making the call stays open; every other one ends.',
        body: ChangePasswordBody,
        response: { 204: z.null().describe('Changed'), 400: ErrorJson, 401: ErrorJson, 429: ErrorJson },
      },
      preHandler: requireUser,
    },
    async (request, reply) => {
      const user = currentUser(request);
      await users.changeOwnPassword(
        user,
        { oldPassword: request.body.old_password, password: request.body.password },
        request.ip,
        request.session?.sessionId ?? null,
      );
      if (user.source_id === 'admin')
        ctx.log.info('The administrator "admin" changed its password: it is no longer the initial one.');
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/user/avatar',
    { schema: { tags: ['User'], summary: 'The own picture' }, preHandler: requireUser },
    async (request, reply) => {
      const avatar = avatarOf(currentUser(request));
      return reply
        .header('Content-Type', avatar.type)
        .header('Cache-Control', 'private, no-cache')
        .send(avatar.body);
    },
  );

  r.get(
    '/user/tags',
    { schema: { tags: ['User'], summary: 'Sharding tags the user may use' }, preHandler: requireUser },
    async (request) => users.tags(currentUser(request).id),
  );

  r.get(
    '/user/tasks',
    {
      schema: {
        tags: ['User'],
        summary: "The user's tasks (subscriptions to validate)",
        querystring: PageQuery,
      },
      preHandler: requireUser,
    },
    async (request) =>
      userTasks(ctx.db, permissions, currentUser(request).id, request.query.page, request.query.size),
  );

  r.get(
    '/user/notifications',
    {
      schema: { tags: ['User'], summary: "The user's notifications, newest first", querystring: PageQuery },
      preHandler: requireUser,
    },
    async (request) => {
      const { page, size } = request.query;
      const { rows, total } = await findNotificationsOfUser(ctx.db, currentUser(request).id, {
        offset: (page - 1) * size,
        limit: size,
      });
      const data = rows.map((n) => ({
        id: n.id,
        title: n.title,
        message: n.message,
        created_at: n.created_at,
      }));
      return toPage(data, page, size, total);
    },
  );

  r.delete(
    '/user/notifications',
    { schema: { tags: ['User'], summary: 'Delete all own notifications' }, preHandler: requireUser },
    async (request, reply) => {
      await deleteNotificationsOfUser(ctx.db, currentUser(request).id);
      return reply.code(204).send();
    },
  );

  r.delete(
    '/user/notifications/:notification',
    {
      schema: {
        tags: ['User'],
        summary: 'Delete one own notification',
        params: z.object({ notification: z.string() }),
      },
      preHandler: requireUser,
    },
    async (request, reply) => {
      const deleted = await deleteNotificationsOfUser(
        ctx.db,
        currentUser(request).id,
        request.params.notification,
      );
      if (deleted === 0) throw notFound('Notification', request.params.notification);
      return reply.code(204).send();
    },
  );
}
