/** The URL path to call: the endpoint target's path, then the request's path below the context path. */
export function targetPath(target: URL, pathInfo: string, query: string): string {
  return joinPath(targetBase(target), pathInfo, query);
}

/** What an endpoint's target puts before each call's path and query (its URL read once). */
export interface TargetBase {
  /** The target's path without its trailing slash. */
  path: string;
  /** The target's own query, without `?` ('' when none). */
  query: string;
}

/** An endpoint target's base path and query. */
export function targetBase(target: URL): TargetBase {
  const path = target.pathname.endsWith('/') ? target.pathname.slice(0, -1) : target.pathname;
  return { path, query: target.search.length > 1 ? target.search.slice(1) : '' };
}

export /** The path to call: the target's base path, then the call's path below the context path, both queries. */
function joinPath(base: TargetBase, pathInfo: string, query: string): string {
  const path = base.path + pathInfo || '/';
  const all = base.query && query ? `${base.query}&${query}` : base.query || query;
  return all ? `${path}?${all}` : path;
}
