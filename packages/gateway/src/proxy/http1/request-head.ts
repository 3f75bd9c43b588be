import type { Readable } from 'node:stream';
import { LINE_BREAK } from '../../http/headers.js';

/** An upstream call that cannot be sent as given (undici's code, so that both clients fail alike). */
export class InvalidRequestError extends Error {
  readonly code = 'UND_ERR_INVALID_ARG';
}

/** A header name: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a request target may not hold: controls, space and DEL (as undici refuses them). */
const PATH_INVALID = /[^\u0021-\u007e\u0080-\u00ff]/;
/** Methods whose request has a body by definition: without one, they say Content-Length: 0. */
const EXPECTS_BODY = new Set(['POST', 'PUT', 'PATCH']);
/**
 * Request headers the client owns: hop-by-hop ones (the gateway already dropped the client's) and
 * `expect`, which Node's server has answered already (the body follows at once).
 */
const OWN = new Set(['connection', 'keep-alive', 'transfer-encoding', 'expect', 'upgrade']);

/** How the request's body is framed. */
export type BodyFraming = 'none' | 'length' | 'chunked';

/**
 * The request line and headers of an upstream call, as latin1 text, and how its body is framed. The
 * headers' names and values are checked here: a policy may have written them from the client's input.
 */
export function requestHead(
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer | Readable | undefined,
  keepAlive: boolean,
): { head: string; framing: BodyFraming } {
  if (!TOKEN.test(method)) throw new InvalidRequestError('invalid request method');
  if (path.length === 0 || PATH_INVALID.test(path)) throw new InvalidRequestError('invalid request path');
  let head = `${method} ${path} HTTP/1.1\r\n`;
  let length = false;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || OWN.has(name)) continue;
    if (!TOKEN.test(name)) throw new InvalidRequestError(`invalid header name ${JSON.stringify(name)}`);
    if (name === 'content-length') length = true;
    if (typeof value === 'string') {
      if (LINE_BREAK.test(value)) throw new InvalidRequestError(`invalid value of header ${name}`);
      head += `${name}: ${value}\r\n`;
    } else {
      for (const one of value) {
        if (LINE_BREAK.test(one)) throw new InvalidRequestError(`invalid value of header ${name}`);
        head += `${name}: ${one}\r\n`;
      }
    }
  }
  let framing: BodyFraming = 'none';
  if (Buffer.isBuffer(body)) {
    if (!length) head += `content-length: ${body.length}\r\n`;
    framing = 'length';
  } else if (body !== undefined) {
    if (!length) head += 'transfer-encoding: chunked\r\n';
    framing = length ? 'length' : 'chunked';
  } else if (!length && EXPECTS_BODY.has(method)) head += 'content-length: 0\r\n';
  head += keepAlive ? 'connection: keep-alive\r\n\r\n' : 'connection: close\r\n\r\n';
  return { head, framing };
}
