import type { FastifyInstance } from 'fastify';
import { jsonTooDeep } from '@portico/model';

/** How deep objects and arrays of a JSON body may nest: deeper bodies are refused with a 400. */
export const MAX_JSON_DEPTH = 64;

/** The request body limit of the management API (routes may set their own). */
export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * How deep the objects and arrays of a JSON text nest, counted without parsing (brackets inside
 * strings do not count); stops counting once past `limit`.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * Replaces Fastify's JSON parser: an empty body sent with `Content-Type: application/json` counts as no
 * body (Gravitee 1.x clients send one with actions such as `_publish`), and bodies nested deeper than
 * MAX_JSON_DEPTH are refused with a 400 naming the limit. Prototype poisoning is refused as before.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim().length === 0) {
      done(null, undefined);
      return;
    }
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(jsonTooDeep(MAX_JSON_DEPTH), undefined);
      return;
    }
    parse(request, text, done);
  });
}
