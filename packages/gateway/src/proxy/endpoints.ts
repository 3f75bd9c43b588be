import { Agent, ProxyAgent, buildConnector } from 'undici';
import type { Dispatcher } from 'undici';
import { readFileSync } from 'node:fs';
import { SocksClient } from 'socks';
import type {
  Endpoint,
  EndpointGroup,
  HealthCheckService,
  HttpClientOptions,
  HttpProxyOptions,
  SslOptions,
} from '@portico/model';
import { Endpoint as EndpointSchema, HttpClientOptions as HttpClientOptionsSchema } from '@portico/model';
import type { UpstreamDispatcher } from './http1/http1-client.js';
import { Http1Client } from './http1/http1-client.js';
import type { TargetBase } from './target-path.js';
import { targetBase } from './target-path.js';

/** An endpoint ready to be called: its target, configuration, connection pool and health. */
export interface EndpointRuntime {
  name: string;
  groupName: string;
  target: URL;
  /** The target's path and query, read once: what goes before each call's own. */
  base: TargetBase;
  weight: number;
  backup: boolean;
  http: HttpClientOptions;
  headers: Record<string, string>;
  /** undici's pool: health checks, and calls that Portico's own client does not make (`upstream`). */
  dispatcher: Dispatcher;
  /** What the gateway's calls go through: Portico's HTTP/1.1 client for a plain-HTTP target, else undici. */
  upstream: UpstreamDispatcher;
  /** Down endpoints leave the balancer until a health check finds them up again. */
  up: boolean;
  /** The endpoint's own health-check configuration, when it does not inherit the API's. */
  healthcheck: HealthCheckService | undefined;
}

export interface GroupRuntime {
  name: string;
  /**
   * Replaced whole (never mutated) when service discovery finds other instances: a request reads the
   * array once and keeps a consistent list.
   */
  endpoints: EndpointRuntime[];
  balancer: LoadBalancer;
  /** Stops the group's service discovery, if it has one (idempotent). */
  stopDiscovery?: (() => void) | undefined;
}

/**
 * Starts keeping a group's discovered endpoints current (the group's definition says how); `build`
 * makes the runtime of a discovered instance with the group's configuration. Returns how to stop, or
 * undefined when the group has no discovery to run.
 */
export type GroupDiscovery = (
  runtime: GroupRuntime,
  group: EndpointGroup,
  build: (name: string, target: string) => EndpointRuntime,
) => (() => void) | undefined;

const DEFAULT_HTTP = HttpClientOptionsSchema.parse({});

function readPem(path: string | undefined, content: string | undefined): string | undefined {
  if (content) return content;
  return path ? readFileSync(path, 'utf8') : undefined;
}

/** TLS options of undici's connector from the SSL configuration (PEM stores; JKS/PKCS12 need a PEM export). */
function tlsOptions(ssl: SslOptions | undefined): Record<string, unknown> {
  if (!ssl) return {};
  const out: Record<string, unknown> = { rejectUnauthorized: !ssl.trustAll };
  if (!ssl.hostnameVerifier) out.checkServerIdentity = () => undefined;
  if (ssl.trustStore?.type === 'PEM') out.ca = readPem(ssl.trustStore.path, ssl.trustStore.content);
  if (ssl.trustStore?.type === 'PKCS12') {
    out.pfx = ssl.trustStore.content
      ? Buffer.from(ssl.trustStore.content, 'base64')
      : readFileSync(ssl.trustStore.path!);
    out.passphrase = ssl.trustStore.password;
  }
  if (ssl.keyStore?.type === 'PEM') {
    out.cert = readPem(ssl.keyStore.certPath, ssl.keyStore.certContent);
    out.key = readPem(ssl.keyStore.keyPath, ssl.keyStore.keyContent);
  }
  if (ssl.keyStore?.type === 'PKCS12') {
    out.pfx = ssl.keyStore.content
      ? Buffer.from(ssl.keyStore.content, 'base64')
      : readFileSync(ssl.keyStore.path!);
    out.passphrase = ssl.keyStore.password;
  }
  return out;
}

/**
 * A connector that opens each connection through a SOCKS4 or SOCKS5 proxy, then starts TLS over it
 * for https targets (with the endpoint's TLS options, through undici's own connector).
 */
function socksConnector(
  proxy: HttpProxyOptions,
  connect: buildConnector.BuildOptions,
): buildConnector.connector {
  const tls = buildConnector(connect);
  return (options, callback) => {
    const https = options.protocol === 'https:';
    SocksClient.createConnection({
      proxy: {
        host: proxy.host!,
        port: proxy.port!,
        type: proxy.type === 'SOCKS4' ? 4 : 5,
        ...(proxy.username ? { userId: proxy.username, password: proxy.password ?? '' } : {}),
      },
      command: 'connect',
      destination: { host: options.hostname, port: Number(options.port) || (https ? 443 : 80) },
      timeout: connect.timeout ?? undefined,
    }).then(
      ({ socket }) => {
        if (https) tls({ ...options, httpSocket: socket }, callback);
        else callback(null, socket);
      },
      (error: Error) => callback(error, null),
    );
  };
}

function makeDispatcher(
  http: HttpClientOptions,
  proxy: HttpProxyOptions | undefined,
  ssl: SslOptions | undefined,
): Dispatcher {
  const connect = { timeout: http.connectTimeout, ...tlsOptions(ssl) };
  const common = {
    connections: http.maxConcurrentConnections,
    keepAliveTimeout: http.keepAlive ? http.idleTimeout : 1,
    keepAliveMaxTimeout: http.keepAlive ? Math.max(http.idleTimeout, 1000) : 1,
    pipelining: http.pipelining ? 10 : 1,
    headersTimeout: http.readTimeout,
    bodyTimeout: http.readTimeout,
  };
  if (proxy?.enabled && proxy.host && proxy.port) {
    if (proxy.type === 'SOCKS4' || proxy.type === 'SOCKS5')
      return new Agent({ connect: socksConnector(proxy, connect), ...common });
    return new ProxyAgent({
      uri: `http://${proxy.host}:${proxy.port}`,
      ...(proxy.username
        ? {
            token: `Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}`,
          }
        : {}),
      requestTls: connect,
      ...common,
    });
  }
  return new Agent({ connect, ...common });
}

/**
 * Builds the runtime of one group. A gateway of a tenant leaves out the endpoints of other tenants; a
 * gateway without tenant uses every endpoint.
 */
export function buildGroup(
  group: EndpointGroup,
  tenant: string | undefined,
  discovery?: GroupDiscovery,
): GroupRuntime {
  const endpoints = group.endpoints
    .filter((e) => tenant === undefined || e.tenants.length === 0 || e.tenants.includes(tenant))
    .map((e) => buildEndpoint(group, e));
  const runtime: GroupRuntime = {
    name: group.name,
    endpoints,
    balancer: createBalancer(group.load_balancing.type),
  };
  if (group.services?.discovery?.enabled && discovery) {
    // A discovered instance inherits the group's HTTP, proxy, SSL and headers configuration.
    const build = (name: string, target: string) =>
      buildEndpoint(group, EndpointSchema.parse({ name, target }));
    runtime.stopDiscovery = discovery(runtime, group, build);
  }
  return runtime;
}

function buildEndpoint(group: EndpointGroup, e: Endpoint): EndpointRuntime {
  const inherit = e.inherit !== false;
  const http = (inherit ? group.http : e.http) ?? group.http ?? DEFAULT_HTTP;
  const proxy = inherit ? group.proxy : e.proxy;
  const ssl = inherit ? group.ssl : e.ssl;
  // Like http, proxy and ssl, the headers are the group's or, when not inherited, the endpoint's own.
  // Names in lower case, as the request's are, so that one replaces the other instead of both being sent.
  const headers = Object.fromEntries(
    Object.entries((inherit ? group.headers : e.headers) ?? {}).map(([name, value]) => [
      name.toLowerCase(),
      value,
    ]),
  );
  const target = new URL(e.target);
  const dispatcher = makeDispatcher(http, proxy, ssl);
  // TLS, a proxy and pipelining are undici's: Portico's client speaks plain HTTP/1.1, one call at a time.
  const ownClient = target.protocol === 'http:' && !proxy?.enabled && !http.pipelining;
  return {
    name: e.name,
    groupName: group.name,
    target,
    base: targetBase(target),
    weight: e.weight,
    backup: e.backup,
    http,
    headers,
    dispatcher,
    upstream: ownClient
      ? new Http1Client(
          target,
          {
            connections: http.maxConcurrentConnections,
            keepAlive: http.keepAlive,
            idleTimeout: http.idleTimeout,
            connectTimeout: http.connectTimeout,
          },
          dispatcher,
        )
      : dispatcher,
    up: true,
    healthcheck: e.healthcheck,
  };
}

export interface LoadBalancer {
  /** The next endpoint among the candidates, or undefined when there is none. */
  next(candidates: EndpointRuntime[]): EndpointRuntime | undefined;
}

/** Load balancers of the spec: ROUND_ROBIN, RANDOM, WEIGHTED_ROUND_ROBIN, WEIGHTED_RANDOM. */
export function createBalancer(type: string): LoadBalancer {
  let position = 0;
  switch (type) {
    case 'RANDOM':
      return { next: (c) => c[Math.floor(Math.random() * c.length)] };
    case 'WEIGHTED_RANDOM':
      return {
        next: (c) => {
          const total = c.reduce((s, e) => s + e.weight, 0);
          let pick = Math.random() * total;
          for (const e of c) if ((pick -= e.weight) < 0) return e;
          return c.at(-1);
        },
      };
    case 'WEIGHTED_ROUND_ROBIN':
      // Smooth weighted round robin: over sum(weights) calls each endpoint gets its weight, interleaved.
      return (() => {
        // Weak: endpoints that service discovery removes are not kept alive by the balancer.
        const current = new WeakMap<EndpointRuntime, number>();
        return {
          next: (c: EndpointRuntime[]) => {
            if (c.length === 0) return undefined;
            const total = c.reduce((s, e) => s + e.weight, 0);
            let best: EndpointRuntime | undefined;
            for (const e of c) {
              const v = (current.get(e) ?? 0) + e.weight;
              current.set(e, v);
              if (!best || v > current.get(best)!) best = e;
            }
            current.set(best!, current.get(best!)! - total);
            return best;
          },
        };
      })();
    default:
      return {
        next: (c) => {
          if (c.length === 0) return undefined;
          const e = c[position % c.length];
          position = (position + 1) % 1_000_000_007;
          return e;
        },
      };
  }
}

/** Endpoints that may take traffic: primaries that are up, else the backups that are up. */
export function candidates(group: GroupRuntime): EndpointRuntime[] {
  // The usual case, every endpoint a primary and up: the group's own list, without a copy.
  const all = group.endpoints;
  let every = true;
  for (const e of all) {
    if (e.backup || !e.up) {
      every = false;
      break;
    }
  }
  if (every) return all;
  const primaries = group.endpoints.filter((e) => !e.backup && e.up);
  return primaries.length > 0 ? primaries : group.endpoints.filter((e) => e.backup && e.up);
}

/** Stops the service discovery of these groups (at once, while their pools drain). */
export function stopDiscovery(groups: GroupRuntime[]): void {
  for (const group of groups) group.stopDiscovery?.();
}

export async function closeGroups(groups: GroupRuntime[]): Promise<void> {
  stopDiscovery(groups);
  await Promise.all(groups.flatMap((g) => g.endpoints.map((e) => closeEndpoint(e))));
}

/** Closes an endpoint's connections once their calls are done (its own client closes undici's pool too). */
export function closeEndpoint(endpoint: EndpointRuntime): Promise<void> {
  return endpoint.upstream.close().catch(() => {});
}
