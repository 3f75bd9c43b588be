import type { Endpoint, EndpointGroup, Proxy } from '@portico/model';

/**
 * The endpoints and groups of an API's proxy as the console edits them (console-apis.md 3 and 5): the
 * rules of the editors, and the proxy after a change (saved whole by `PUT apis/{id}`).
 */

/** What an HTTP configuration holds: the client options, the proxy, TLS and the headers. */
export type HttpConfig = Pick<EndpointGroup, 'http' | 'proxy' | 'ssl' | 'headers'>;
export type Store = NonNullable<NonNullable<EndpointGroup['ssl']>['keyStore']>;

/** The spec's default HTTP configuration (section 9). */
export const DEFAULT_HTTP: NonNullable<EndpointGroup['http']> = {
  connectTimeout: 5000,
  readTimeout: 10000,
  idleTimeout: 60000,
  maxConcurrentConnections: 100,
  keepAlive: true,
  pipelining: false,
  useCompression: true,
  followRedirects: false,
  encodeURI: false,
};

/** A broken rule, by its message key under `apiProxy.problems`. */
export type Problem =
  | 'required'
  | 'colon'
  | 'taken'
  | 'weight'
  | 'min0'
  | 'min10'
  | 'port'
  | 'storePathOrContent'
  | 'storePassword'
  | 'pemKeyStore'
  | 'duplicateHeader';

export type Problems = Record<string, Problem>;

/** Where an endpoint or a group sits: group index, endpoint index (absent for a group or a new one). */
export interface Place {
  group?: number;
  endpoint?: number;
}

/** The problem of a name for an endpoint or a group at `own`: required, no ':', unique in the API. */
export function nameProblem(proxy: Proxy, name: string, own: Place): Problem | undefined {
  if (!name.trim()) return 'required';
  if (name.includes(':')) return 'colon';
  for (const [g, group] of proxy.groups.entries()) {
    if (group.name === name && !(own.endpoint === undefined && own.group === g)) return 'taken';
    for (const [e, endpoint] of group.endpoints.entries()) {
      if (endpoint.name === name && !(own.group === g && own.endpoint === e)) return 'taken';
    }
  }
  return undefined;
}

const missing = (n: number | undefined) => n === undefined || Number.isNaN(n);

/** The rules of section 5 for an HTTP configuration, by field (`http.maxConcurrentConnections`). */
export function httpConfigProblems(config: HttpConfig): Problems {
  const problems: Problems = {};
  const http = config.http;
  if (http) {
    for (const key of ['connectTimeout', 'readTimeout', 'idleTimeout'] as const) {
      if (missing(http[key])) problems[`http.${key}`] = 'required';
      else if (http[key] < 0) problems[`http.${key}`] = 'min0';
    }
    if (missing(http.maxConcurrentConnections)) problems['http.maxConcurrentConnections'] = 'required';
    else if (http.maxConcurrentConnections < 10) problems['http.maxConcurrentConnections'] = 'min10';
  }
  const proxy = config.proxy;
  if (proxy?.enabled) {
    if (!proxy.host?.trim()) problems['proxy.host'] = 'required';
    if (missing(proxy.port)) problems['proxy.port'] = 'required';
  }
  if (proxy?.port !== undefined && (proxy.port < 0 || proxy.port > 65536)) problems['proxy.port'] = 'port';
  for (const kind of ['trustStore', 'keyStore'] as const) {
    const store = config.ssl?.[kind] as Store | undefined;
    if (!store || store.type === '') continue;
    if (kind === 'trustStore' && config.ssl?.trustAll) continue;
    if (kind === 'keyStore' && store.type === 'PEM') {
      if (!store.certPath && !store.certContent) problems[`ssl.${kind}.certPath`] = 'pemKeyStore';
      if (!store.keyPath && !store.keyContent) problems[`ssl.${kind}.keyPath`] = 'pemKeyStore';
      continue;
    }
    if (!store.path && !store.content) problems[`ssl.${kind}.path`] = 'storePathOrContent';
    if ((store.type === 'JKS' || store.type === 'PKCS12') && !store.password)
      problems[`ssl.${kind}.password`] = 'storePassword';
  }
  return problems;
}

/** The rules of the endpoint editor (General tab and, when not inherited, its HTTP configuration). */
export function endpointProblems(proxy: Proxy, own: Place, endpoint: Endpoint): Problems {
  const problems: Problems = endpoint.inherit ? {} : httpConfigProblems(endpoint);
  const name = nameProblem(proxy, endpoint.name, own);
  if (name) problems.name = name;
  if (!endpoint.target.trim()) problems.target = 'required';
  if (missing(endpoint.weight)) problems.weight = 'required';
  else if (endpoint.weight < 1 || endpoint.weight > 99) problems.weight = 'weight';
  return problems;
}

/** The rules of the group editor (General and HTTP configuration tabs). */
export function groupProblems(proxy: Proxy, own: Place, group: EndpointGroup): Problems {
  const problems = httpConfigProblems(group);
  const name = nameProblem(proxy, group.name, { group: own.group });
  if (name) problems.name = name;
  return problems;
}

/** Header pairs as edited: name and value required, a name (in any case) once (they are sent as a map). */
export function headerPairProblems(pairs: readonly [string, string][]): Problems {
  const problems: Problems = {};
  const names = new Set<string>();
  for (const [n, [name, value]] of pairs.entries()) {
    const lower = name.trim().toLowerCase();
    if (!lower) problems[`headers.${n}.name`] = 'required';
    else if (names.has(lower)) problems[`headers.${n}.name`] = 'duplicateHeader';
    names.add(lower);
    if (!value) problems[`headers.${n}.value`] = 'required';
  }
  return problems;
}

export const headerPairs = (headers: Record<string, string> | undefined): [string, string][] =>
  Object.entries(headers ?? {});
export const headerMap = (pairs: readonly [string, string][]): Record<string, string> =>
  Object.fromEntries(pairs.map(([name, value]) => [name.trim(), value]));

/** What saving drops (section 5): an endpoint proxy without host or port, a store without type. */
export function cleanHttpConfig<T extends HttpConfig>(target: T): T {
  const out = { ...target };
  if (out.proxy && !out.proxy.enabled && (!out.proxy.host || out.proxy.port === undefined)) delete out.proxy;
  if (out.ssl) {
    const ssl = { ...out.ssl };
    if (!ssl.trustStore?.type || ssl.trustAll) delete ssl.trustStore;
    if (!ssl.keyStore?.type) delete ssl.keyStore;
    out.ssl = ssl;
  }
  return out;
}

/**
 * The endpoint with `inherit` switched (section 4): on, the group's HTTP configuration applies; off, the
 * endpoint starts from a copy of its group's (client options, proxy, TLS and headers).
 */
export function withInheritance(endpoint: Endpoint, group: EndpointGroup, inherit: boolean): Endpoint {
  if (inherit) return { ...endpoint, inherit };
  const { http: _http, proxy: _proxy, ssl: _ssl, headers: _headers, ...own } = endpoint;
  const copy = structuredClone({
    http: group.http,
    proxy: group.proxy,
    ssl: group.ssl,
    headers: group.headers,
  });
  return {
    ...own,
    inherit,
    ...(copy.http && { http: copy.http }),
    ...(copy.proxy && { proxy: copy.proxy }),
    ...(copy.ssl && { ssl: copy.ssl }),
    ...(copy.headers && { headers: copy.headers }),
  };
}

/** The proxy with the endpoint put at its place (or appended to the group when new). */
export function withEndpoint(proxy: Proxy, own: Place, endpoint: Endpoint): Proxy {
  const g = own.group ?? 0;
  const groups = proxy.groups.map((group, i) => {
    if (i !== g) return group;
    const endpoints =
      own.endpoint === undefined
        ? [...group.endpoints, endpoint]
        : group.endpoints.map((e, j) => (j === own.endpoint ? endpoint : e));
    return { ...group, endpoints };
  });
  return { ...proxy, groups };
}

export function withoutEndpoint(proxy: Proxy, group: number, endpoint: number): Proxy {
  return {
    ...proxy,
    groups: proxy.groups.map((g, i) =>
      i === group ? { ...g, endpoints: g.endpoints.filter((_, j) => j !== endpoint) } : g,
    ),
  };
}

/** The proxy with the group put at its place (or appended when new). */
export function withGroup(proxy: Proxy, own: Place, group: EndpointGroup): Proxy {
  const groups =
    own.group === undefined
      ? [...proxy.groups, group]
      : proxy.groups.map((g, i) => (i === own.group ? group : g));
  return { ...proxy, groups };
}

/** The proxy without the group; undefined when it is the last one (an API keeps one group). */
export function withoutGroup(proxy: Proxy, group: number): Proxy | undefined {
  if (proxy.groups.length <= 1) return undefined;
  return { ...proxy, groups: proxy.groups.filter((_, i) => i !== group) };
}

/** Where the group and endpoint named in the route are. */
export function placeOf(proxy: Proxy, groupName: string, endpointName?: string): Place | undefined {
  const group = proxy.groups.findIndex((g) => g.name === groupName);
  if (group < 0) return undefined;
  if (endpointName === undefined) return { group };
  const endpoint = proxy.groups[group]!.endpoints.findIndex((e) => e.name === endpointName);
  return endpoint < 0 ? undefined : { group, endpoint };
}
