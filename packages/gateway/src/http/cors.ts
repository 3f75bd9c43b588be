import type { IncomingHttpHeaders } from 'node:http';
import type { Cors } from '@portico/model';

const REGEX_CHARS = /[{[(*]/;
const patterns = new Map<string, RegExp | null>();

/** An allowed origin holding `{`, `[`, `(` or `*` as the whole-origin regular expression it is (null if invalid). */
function patternOf(allowed: string): RegExp | null {
  let pattern = patterns.get(allowed);
  if (pattern === undefined) {
    try {
      pattern = new RegExp(`^(?:${allowed})$`);
    } catch {
      pattern = null;
    }
    if (patterns.size > 1000) patterns.clear();
    patterns.set(allowed, pattern);
  }
  return pattern;
}

/**
 * Whether the origin is allowed: `*`, the same origin, an entry that is a regular expression matching the
 * whole origin (as the console validates them), or a `*` wildcard standing for any characters.
 */
function originAllowed(cors: Cors, origin: string): boolean {
  return cors.allowOrigin.some(
    (o) =>
      o === '*' ||
      o === origin ||
      (REGEX_CHARS.test(o) && patternOf(o)?.test(origin) === true) ||
      (o.includes('*') && new RegExp(`^${o.split('*').map(escape).join('.*')}$`).test(origin)),
  );
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Headers added to actual (non-preflight) responses of an API with CORS enabled. */
export function corsHeaders(cors: Cors, origin: string): Record<string, string> {
  if (!originAllowed(cors, origin)) return {};
  const wildcard = cors.allowOrigin.includes('*') && !cors.allowCredentials;
  const headers: Record<string, string> = { 'access-control-allow-origin': wildcard ? '*' : origin };
  if (!wildcard) headers.vary = 'Origin';
  if (cors.allowCredentials) headers['access-control-allow-credentials'] = 'true';
  if (cors.exposeHeaders.length > 0) headers['access-control-expose-headers'] = cors.exposeHeaders.join(', ');
  return headers;
}

/** The gateway's own answer to a CORS preflight (the backend is not called). */
export function preflight(
  cors: Cors,
  origin: string,
  headers: IncomingHttpHeaders,
): { status: number; headers: Record<string, string> } {
  const method = String(headers['access-control-request-method'] ?? '').toUpperCase();
  const methodOk =
    cors.allowMethods.length === 0 || cors.allowMethods.map((m) => m.toUpperCase()).includes(method);
  if (!originAllowed(cors, origin) || !methodOk)
    return { status: 400, headers: { 'content-type': 'text/plain' } };
  const out = corsHeaders(cors, origin);
  out['access-control-allow-methods'] = (cors.allowMethods.length > 0 ? cors.allowMethods : [method]).join(
    ', ',
  );
  const requested = headers['access-control-request-headers'];
  if (cors.allowHeaders.length > 0) out['access-control-allow-headers'] = cors.allowHeaders.join(', ');
  else if (requested) out['access-control-allow-headers'] = String(requested);
  if (cors.maxAge >= 0) out['access-control-max-age'] = String(cors.maxAge);
  return { status: 200, headers: out };
}
