import { invalidField, notFound, staleEtag } from '@portico/model';
import type { Executor, UserRow } from '@portico/storage';
import { findPageById } from '@portico/storage';
import { mappingKey as keyOf, normalizePathMapping } from './api-design-rules.js';
import { parseDocument } from './api-import.source.js';
import { definitionOf } from './apis.definition.js';
import { apiEtag } from './apis.mapper.js';
import type { ApiService } from './apis.service.js';
import { isSwaggerDocument, toPathMapping } from './apis.swagger.js';

/** The path mappings of an OpenAPI document's paths (`/pets/{id}` -> `/pets/:id`). */
export function pathMappingsOf(document: Record<string, unknown>): string[] {
  const paths = document.paths;
  if (typeof paths !== 'object' || paths === null) return [];
  return Object.keys(paths)
    .filter((p) => p.startsWith('/'))
    .map((p) => normalizePathMapping(toPathMapping(p)));
}

/**
 * `POST apis/{id}/import-path-mappings?page=`: adds the paths of one of the API's Swagger/OpenAPI pages
 * to its path mappings (those already there, parameters normalised, are kept once). The API is saved as
 * a change of its definition, so it becomes out of sync; a change made meanwhile answers 412.
 */
export async function importPathMappings(
  deps: { db: Executor; apis: ApiService },
  actor: UserRow,
  apiId: string,
  pageId: string | undefined,
) {
  if (!pageId) throw invalidField('page', 'A swagger document must be chosen.');
  const row = await deps.apis.get(apiId);
  const page = await findPageById(deps.db, pageId);
  if (!page || page.reference_type !== 'API' || page.reference_id !== apiId) throw notFound('Page', pageId);
  if (page.type !== 'SWAGGER') throw invalidField('page', 'The page is not a swagger document.');
  let document: Record<string, unknown>;
  try {
    document = parseDocument(page.content ?? '');
  } catch {
    throw invalidField('page', 'The page is not a valid swagger document.');
  }
  if (!isSwaggerDocument(document)) throw invalidField('page', 'The page is not a valid swagger document.');
  const current = definitionOf(row).path_mappings;
  const keys = new Set(current.map(keyOf));
  const added: string[] = [];
  for (const mapping of pathMappingsOf(document)) {
    if (keys.has(keyOf(mapping))) continue;
    keys.add(keyOf(mapping));
    added.push(mapping);
  }
  const etag = apiEtag(row);
  return deps.apis.update(actor, apiId, { path_mappings: [...current, ...added] }, (now) => {
    if (now !== etag) throw staleEtag();
  });
}
