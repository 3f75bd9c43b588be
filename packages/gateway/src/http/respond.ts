import type { ServerResponse } from 'node:http';
import type { ResponseTemplates } from '@portico/model';

/** The error body of the gateway when no response template applies. */
export function errorBody(status: number, message: string): string {
  return JSON.stringify({ message, http_status: status });
}

/**
 * The API's response template for an error key, chosen by the client's Accept header (exact media
 * type first, then the `*` + `/` + `*` entry).
 */
export function findTemplate(
  templates: ResponseTemplates,
  key: string,
  accept: string | undefined,
): { status: number; headers: Record<string, string>; body: string; contentType: string } | undefined {
  const byType = templates[key];
  if (!byType) return undefined;
  const wanted = (accept ?? '*/*').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  for (const type of wanted) {
    const template = byType[type];
    if (template) return { ...template, contentType: type === '*/*' ? 'application/json' : type };
  }
  const any = byType['*/*'];
  return any ? { ...any, contentType: 'application/json' } : undefined;
}

export function sendBody(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: string | Buffer,
): number {
  const buffer = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'content-length': String(buffer.length) });
  res.end(buffer);
  return buffer.length;
}
