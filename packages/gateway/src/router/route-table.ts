import type { CompiledApi } from './compiled.js';

interface Route {
  host: string | undefined;
  path: string;
  api: CompiledApi;
}

export interface RouteMatch {
  api: CompiledApi;
  /** The matched context path (entrypoint path). */
  contextPath: string;
  /** The rest of the request path, below the context path. */
  pathInfo: string;
}

/**
 * The route table: entrypoints sorted by longest path first (host-specific before host-less at the
 * same length). Replaced as a whole when APIs change, so a request sees one consistent table.
 */
export class RouteTable {
  private readonly routes: Route[];

  constructor(apis: Iterable<CompiledApi>) {
    const routes: Route[] = [];
    for (const api of apis) for (const e of api.entrypoints) routes.push({ host: e.host, path: e.path, api });
    routes.sort(
      (a, b) => b.path.length - a.path.length || Number(b.host !== undefined) - Number(a.host !== undefined),
    );
    this.routes = routes;
  }

  match(host: string, path: string): RouteMatch | undefined {
    const hostname = host.replace(/:\d+$/, '').toLowerCase();
    for (const route of this.routes) {
      if (route.host !== undefined && route.host !== hostname) continue;
      const cp = route.path;
      if (cp === '/' || path === cp || path.startsWith(`${cp}/`)) {
        return { api: route.api, contextPath: cp, pathInfo: cp === '/' ? path : path.slice(cp.length) };
      }
    }
    return undefined;
  }

  get size(): number {
    return this.routes.length;
  }
}
