import type { Entrypoint } from './portal-api';

/** The header never shows the portal header of this name (portal-and-platform.md: API detail). */
export const HIDDEN_HEADER = 'api.endpoint';

/**
 * Where consumers call the API: each configured entrypoint that shares a sharding tag with the API,
 * followed by the API's context path, with the tags they share; when none does, the portal's default
 * entrypoint (portal.entrypoint) followed by the context path.
 */
export function apiEntrypoints(
  api: { tags: readonly string[]; context_path: string },
  entrypoints: readonly Entrypoint[],
  defaultEntrypoint: string,
): Entrypoint[] {
  const join = (base: string) => `${base.replace(/\/+$/, '')}${api.context_path}`;
  const matching = entrypoints
    .map((entrypoint) => ({
      value: join(entrypoint.value),
      tags: entrypoint.tags.filter((tag) => api.tags.includes(tag)),
    }))
    .filter((entrypoint) => entrypoint.tags.length > 0);
  return matching.length > 0 ? matching : [{ value: join(defaultEntrypoint), tags: [] }];
}

/** A description cut at 150 characters for the header (portal-and-platform.md 9). */
export const headerDescription = (text: string | null): string =>
  !text ? '' : text.length > 150 ? `${text.slice(0, 150).trimEnd()}…` : text;
