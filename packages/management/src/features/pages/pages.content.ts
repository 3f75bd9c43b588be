import SwaggerParser from '@apidevtools/swagger-parser';
import { invalidField } from '@portico/model';
import { parse as parseYaml } from 'yaml';
import { MAX_JSON_DEPTH } from '../../http/json-body.js';
import type { PageType } from './pages.schemas.js';
import { MAX_PAGE_CONTENT_BYTES } from './pages.schemas.js';

export const CONTENT_TOO_LARGE = `the content is larger than the limit of ${MAX_PAGE_CONTENT_BYTES / 1024 / 1024} MB`;
export const CONTENT_TOO_DEEP = `the document nests deeper than ${MAX_JSON_DEPTH} levels`;
export const NOT_OPENAPI = 'the content is not an OpenAPI (Swagger 2 or OpenAPI 3) document';

type Json = Record<string, unknown>;

function deeperThan(value: unknown, limit: number): boolean {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > limit) return true;
    for (const child of Object.values(v)) stack.push({ v: child, d: d + 1 });
  }
  return false;
}

/** Parses an OpenAPI text: JSON or YAML (few aliases), an object, not too deep. */
function parseOpenApi(text: string, field: string): Json {
  let value: unknown;
  try {
    const trimmed = text.trim();
    value = trimmed.startsWith('{') ? JSON.parse(trimmed) : parseYaml(trimmed, { maxAliasCount: 100 });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : '';
    throw invalidField(field, `${NOT_OPENAPI} (${reason})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidField(field, NOT_OPENAPI);
  if (deeperThan(value, MAX_JSON_DEPTH)) throw invalidField(field, CONTENT_TOO_DEEP);
  const doc = value as Json;
  if (!('swagger' in doc) && !('openapi' in doc)) throw invalidField(field, NOT_OPENAPI);
  return doc;
}

/**
 * Checks a page's content for its type: a folder or the root has none; a Swagger page holds a valid
 * Swagger 2 or OpenAPI 3 document (external references are not resolved); every content within the
 * size limit. The content is stored as given: never rendered nor rewritten on the server.
 */
export async function checkPageContent(
  type: PageType | string,
  content: string | null | undefined,
  /** The field named in the error: `content`, or e.g. `pages[2].content` in an imported definition. */
  field = 'content',
) {
  if (content === null || content === undefined || content === '') return;
  if (type === 'FOLDER' || type === 'ROOT') throw invalidField(field, 'a folder has no content');
  if (Buffer.byteLength(content, 'utf8') > MAX_PAGE_CONTENT_BYTES)
    throw invalidField(field, CONTENT_TOO_LARGE);
  if (type !== 'SWAGGER') return;
  const doc = parseOpenApi(content, field);
  try {
    await SwaggerParser.validate(doc as never, {
      resolve: { external: false, file: false, http: false },
      dereference: { circular: 'ignore' },
      timeoutMs: 10_000,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : '';
    throw invalidField(field, `${NOT_OPENAPI}: ${reason}`);
  }
}
