import type { IncomingHttpHeaders } from 'node:http';

/** Hop-by-hop headers: meaningful for one connection only, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Connection header values that name no other header (nearly every request has one of these). */
const PLAIN_CONNECTION = new Set(['keep-alive', 'close', 'Keep-Alive', 'Close']);

/**
 * Copies headers without the hop-by-hop ones (and those the Connection header names), nor those that
 * `skip` names: leaving them out of the copy is cheaper than deleting them from it.
 */
export function endToEnd(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  skip?: (name: string) => boolean,
): Record<string, string | string[]> {
  const connection = headers.connection;
  let named: Set<string> | undefined;
  if (connection !== undefined && !(typeof connection === 'string' && PLAIN_CONNECTION.has(connection))) {
    named = new Set(
      (Array.isArray(connection) ? connection.join(',') : connection)
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
  }
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || named?.has(name) || skip?.(name)) continue;
    out[name] = value;
  }
  return out;
}

/** What a header value may not hold: CR, LF or NUL (Node refuses to send such a value). */
export const LINE_BREAK = /[\r\n\0]/;

/** Message of the 400 answered when a policy put a line break into a header (from a query parameter, say). */
export const HEADER_LINE_BREAK = (name: string) =>
  `The value of header ${name} holds a line break (CR or LF) or a NUL character.`;

/**
 * The first header whose value holds CR, LF or NUL: such a value can only come from the client's
 * input through a policy (a template of a query parameter, say), and Node refuses to send it.
 */
export function headerWithLineBreak(
  ...all: (Record<string, string | string[] | undefined> | undefined)[]
): string | undefined {
  for (const headers of all) {
    if (!headers) continue;
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      if (typeof value === 'string' ? LINE_BREAK.test(value) : value.some((v) => LINE_BREAK.test(v)))
        return name;
    }
  }
  return undefined;
}
