import type { PageRow } from '@portico/storage';
import type { PageJson, PageSource } from './pages.schemas.js';
import { RAML_DEPRECATED } from './pages.schemas.js';

const parse = <T>(text: string | null, fallback: T): T => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export const sourceOf = (row: PageRow): PageSource | null => parse<PageSource | null>(row.source, null);

/** What a secret of a source's configuration reads as (Gravitee's replacement of sensitive data). */
export const SENSITIVE_DATA_REPLACEMENT = '********';
/** The settings of the fetchers that are secrets: tokens and passwords. */
export const SENSITIVE_SOURCE_KEYS = new Set(['personalAccessToken', 'privateToken', 'password']);

/** A source with its secrets replaced by `********` (the value given back keeps the stored secret). */
export function maskedSource(source: PageSource): PageSource {
  const configuration = Object.fromEntries(
    Object.entries(source.configuration).map(([key, value]) => [
      key,
      SENSITIVE_SOURCE_KEYS.has(key) && typeof value === 'string' && value !== ''
        ? SENSITIVE_DATA_REPLACEMENT
        : value,
    ]),
  );
  return { type: source.type, configuration };
}

/**
 * A source sent back by a client: a secret it reads as `********` is the stored one (of the same
 * fetcher), as Gravitee merges sensitive data; any other value replaces it.
 */
export function withStoredSecrets(source: PageSource, stored: PageSource | null): PageSource {
  if (!stored || stored.type !== source.type) return source;
  const configuration = { ...source.configuration };
  for (const key of SENSITIVE_SOURCE_KEYS)
    if (configuration[key] === SENSITIVE_DATA_REPLACEMENT) configuration[key] = stored.configuration[key];
  return { type: source.type, configuration };
}
export const excludedGroupsOf = (row: PageRow): string[] => parse<string[]>(row.excluded_groups, []);

function contentTypeOf(row: PageRow): string {
  if (row.type === 'MARKDOWN') return 'text/markdown';
  if (row.content === null) return 'text/plain';
  const text = row.content.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      JSON.parse(text);
      return 'application/json';
    } catch {
      return 'text/yaml';
    }
  }
  return 'text/yaml';
}

/**
 * A page on the wire (Gravitee 1.x field names). The content is the text as stored: it is never
 * rendered here, the screens render Markdown and OpenAPI sanitized. Readers who may not edit the page
 * get its source without its configuration; those who may get it with its secrets (tokens,
 * passwords) as `********`: a secret is never given back.
 */
export function toPageJson(row: PageRow, options: { withSourceConfiguration: boolean }): PageJson {
  const source = sourceOf(row);
  const json: PageJson = {
    id: row.id,
    name: row.name,
    type: row.type,
    description: row.description ?? null,
    content: row.content,
    contentType: contentTypeOf(row),
    order: row.order,
    published: row.published === 1,
    homepage: row.homepage === 1,
    parentId: row.parent_id,
    lastContributor: row.last_contributor,
    lastModificationDate: row.updated_at,
    source:
      source && !options.withSourceConfiguration
        ? { type: source.type, configuration: {} }
        : source && maskedSource(source),
    configuration: parse<Record<string, string>>(row.configuration, {}),
    excluded_groups: excludedGroupsOf(row),
    metadata: parse<Record<string, string>>(row.metadata, {}),
  };
  if (row.type === 'RAML') json.messages = [RAML_DEPRECATED];
  return json;
}
