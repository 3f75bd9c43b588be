import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** The value of a Basic authorization header. */
export const basic = (username: string, password: string): string =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** What `POST user/login` hands out: the bearer token (also the cookie value) and the XSRF token. */
export interface TestSession {
  userId?: string;
  token: string;
  xsrf: string;
}

/** Signs in through `POST user/login` and fails the test when it is refused. */
export async function login(
  app: FastifyInstance,
  username: string,
  password: string,
  remoteAddress = '127.0.0.1',
): Promise<TestSession> {
  const res = await app.inject({
    method: 'POST',
    url: '/management/user/login',
    headers: { authorization: basic(username, password) },
    remoteAddress,
  });
  expect(res.statusCode, `login of ${username}: ${res.body}`).toBe(200);
  return { token: res.json<{ token: string }>().token, xsrf: String(res.headers['x-xsrf-token']) };
}

/** Headers of a call with the bearer token. */
export const bearer = (session: TestSession): Record<string, string> => ({
  authorization: `Bearer ${session.token}`,
});

/** Injects a call authenticated with the bearer token of the session. */
export function call(
  app: FastifyInstance,
  session: TestSession | undefined,
  request: InjectOptions & { method: InjectOptions['method']; url: string },
): Promise<LightMyRequestResponse> {
  const headers = { ...(session ? bearer(session) : {}), ...(request.headers ?? {}) };
  return app.inject({ ...request, url: `/management${request.url}`, headers });
}

/** The error body of the management API; validation errors (400) also name their `field`. */
export const errorBody = (status: number, message: string | RegExp, field?: string) => ({
  http_status: status,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  ...(field === undefined ? {} : { field }),
});

/**
 * The body of a 400 naming the field: `Invalid value for field '<field>': <reason>`; a reason given as a
 * RegExp is looked for anywhere in the reason.
 */
export const invalidFieldBody = (field: string, reason?: string | RegExp) =>
  errorBody(
    400,
    reason === undefined || reason instanceof RegExp
      ? new RegExp(`^Invalid value for field '${field.replace(/[.]/g, '\\.')}': .*${reason?.source ?? ''}`)
      : `Invalid value for field '${field}': ${reason}`,
    field,
  );

/** A log destination for Fastify that keeps the lines, to check what the server logged. */
export function memoryLog(): { stream: { write(line: string): void }; lines: string[]; text(): string } {
  const lines: string[] = [];
  return { stream: { write: (line: string) => void lines.push(line) }, lines, text: () => lines.join('') };
}
