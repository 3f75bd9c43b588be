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

/** Copies headers without the hop-by-hop ones (and those the Connection header names). */
export function endToEnd(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const connection = headers.connection;
  const named = new Set(
    (Array.isArray(connection) ? connection.join(',') : (connection ?? ''))
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}
