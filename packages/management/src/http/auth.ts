import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { UserRow } from '@portico/storage';
import { findUserById, isSessionOfUserValid, isSessionRevoked } from '@portico/storage';
import { forbidden, parsePermission, unauthenticated, wrongCredentials, xsrfRejected } from '@portico/model';
import type { Session, SessionTokens } from '../features/auth/session.js';
import { SESSION_COOKIE, XSRF_HEADER } from '../features/auth/session.js';
import type { PermissionService } from '../features/permissions/permissions.service.js';
import type { AppContext } from '../context.js';
import { accessCheck } from './access-checks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, when the request carries a valid session (cookie or bearer token). */
    user?: UserRow;
    session?: Session;
    /** The session came from the cookie: writes must carry the XSRF token. */
    sessionFromCookie?: boolean;
    /** The user was identified by HTTP Basic credentials on this very call. */
    basicCredentials?: boolean;
  }
}

/** Checks Basic credentials: the user's own account service (throttled, 401 or 429). */
export interface PasswordCheck {
  verifyPassword(username: string, password: string, address: string): Promise<UserRow>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Reads the session of every request: `Authorization: Bearer <jwt>`, `Authorization: Basic` credentials
 * (as Gravitee 1.x clients send on every call; wrong ones answer 401 'Wrong user or password' and count
 * as failed sign-ins, throttled like `user/login`), or the HttpOnly session cookie. Cookie-authenticated
 * writes must carry the `X-Xsrf-Token` that the server hands out in a header of every answer to such a
 * session. An invalid or expired session is treated as no session, so public calls keep working; calls
 * that need a user answer 401.
 */
export function installSessions(
  app: FastifyInstance,
  ctx: AppContext,
  tokens: SessionTokens,
  passwords: PasswordCheck,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const authorization = request.headers.authorization;
    let token: string | undefined;
    let fromCookie = false;
    if (authorization && /^Basic(\s|$)/i.test(authorization)) {
      const credentials = parseBasic(authorization);
      if (!credentials) throw wrongCredentials();
      request.user = await passwords.verifyPassword(credentials.username, credentials.password, request.ip);
      request.basicCredentials = true;
      return;
    }
    if (authorization) {
      const match = /^Bearer\s+(.+)$/i.exec(authorization);
      if (match) token = match[1]!.trim();
    } else {
      token = request.cookies[SESSION_COOKIE];
      fromCookie = token !== undefined;
    }
    if (!token) return;
    const session = await tokens.verify(token);
    if (!session) return;
    const [user, revoked] = await Promise.all([
      findUserById(ctx.db, session.userId),
      isSessionRevoked(ctx.db, session.sessionId),
    ]);
    if (revoked) return;
    if (!user || user.status !== 'ACTIVE') return;
    // Ended with all the user's sessions (a password reset or change), but the one kept.
    if (!isSessionOfUserValid(user, session.sessionId, session.issuedAt)) return;
    request.user = user;
    request.session = session;
    request.sessionFromCookie = fromCookie;
    if (fromCookie) {
      void reply.header('X-Xsrf-Token', tokens.xsrfToken(session));
      if (
        !SAFE_METHODS.has(request.method) &&
        !tokens.xsrfMatches(session, headerValue(request, XSRF_HEADER))
      ) {
        throw xsrfRejected();
      }
    }
  });
}

/** `Basic base64(username:password)`; undefined when malformed. */
export function parseBasic(header: string): { username: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The signed-in user of a request that went through `requireUser`. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthenticated();
  return request.user;
}

/** preHandler: 401 without a valid session (an access check: it runs before validation). */
export const requireUser: preHandlerAsyncHookHandler = accessCheck(
  async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!request.user) throw unauthenticated();
  },
);

export interface PermissionGuards {
  /**
   * preHandler (run before validation) checking one of the spec's permissions (`management-audit-r`,
   * `api-plan-u`). API and APPLICATION permissions are checked on the API or application of the route
   * parameter `api` or `application`. 401 without a session, 403 without the permission.
   */
  require(permission: string): preHandlerAsyncHookHandler;
  /** Like `require`, but any one of the permissions is enough. */
  requireAny(...permissions: string[]): preHandlerAsyncHookHandler;
}

export function permissionGuards(permissions: PermissionService): PermissionGuards {
  const check = async (request: FastifyRequest, names: string[]) => {
    const user = currentUser(request);
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    for (const name of names) {
      const permission = parsePermission(name);
      const reference =
        permission.scope === 'API'
          ? params.api
          : permission.scope === 'APPLICATION'
            ? params.application
            : undefined;
      if (await permissions.has(user.id, permission, reference)) return;
    }
    throw forbidden(names.join(' or '));
  };
  return {
    require(name: string) {
      parsePermission(name); // fail at start-up on a misspelt permission
      return accessCheck<preHandlerAsyncHookHandler>(async (request) => check(request, [name]));
    },
    requireAny(...names: string[]) {
      names.forEach((n) => parsePermission(n));
      return accessCheck<preHandlerAsyncHookHandler>(async (request) => check(request, names));
    },
  };
}
