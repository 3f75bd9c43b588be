import type { Readable } from 'node:stream';
import { hrtime } from 'node:process';
import type { Dispatcher } from 'undici';
import type { CompiledApi } from '../router/compiled.js';
import type { EndpointRuntime } from './endpoints.js';
import { candidates } from './endpoints.js';
import { joinPath } from './target-path.js';
import { UpstreamCall } from './upstream-call.js';

export interface UpstreamRequest {
  method: string;
  /** Path below the context path, and the query string to send (without `?`). */
  pathInfo: string;
  query: string;
  headers: Record<string, string | string[]>;
  /** A buffered body can be sent again on failover; a stream only once. */
  body: Buffer | Readable | undefined;
  /** Client Host header, kept when the proxy preserves it. */
  clientHost: string;
  /** An attempt failed and failover tries another endpoint (tracing records it). */
  onFailover?: ((failed: EndpointRuntime, key: string) => void) | undefined;
}

export type UpstreamResult =
  | { ok: true; endpoint: EndpointRuntime; response: UpstreamCall; startedAt: bigint }
  | { ok: false; status: 502 | 504; key: string; message: string; endpoint: EndpointRuntime | undefined };

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Redirects followed when the endpoint's followRedirects is on, at most MAX_REDIRECTS in a row. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Calls the API's backend: the load balancer of the first group picks an endpoint among those up
 * (backups when no primary is up); on a connection failure or timeout, failover tries another one up to
 * maxAttempts. 504 on a read timeout, 502 when no endpoint answers.
 */
export async function invokeUpstream(api: CompiledApi, request: UpstreamRequest): Promise<UpstreamResult> {
  const group = api.groups[0];
  if (!group)
    return {
      ok: false,
      status: 502,
      key: 'GATEWAY_NO_ENDPOINT',
      message: 'No endpoint available',
      endpoint: undefined,
    };
  const attempts = api.failover ? api.failover.maxAttempts : 1;
  // Endpoints already tried by this call's failover (none made for a single attempt).
  const tried = attempts > 1 ? new Set<EndpointRuntime>() : undefined;
  let last: UpstreamResult = {
    ok: false,
    status: 502,
    key: 'GATEWAY_NO_ENDPOINT',
    message: 'No endpoint available',
    endpoint: undefined,
  };
  for (let attempt = 0; attempt < attempts; attempt++) {
    const available = candidates(group);
    const fresh = tried && attempt > 0 ? available.filter((e) => !tried.has(e)) : available;
    const endpoint = group.balancer.next(fresh.length > 0 ? fresh : available);
    if (!endpoint) break;
    tried?.add(endpoint);
    const timeout = api.failover
      ? Math.min(api.failover.retryTimeout, endpoint.http.readTimeout)
      : endpoint.http.readTimeout;
    // One attempt (the usual case) sends the request's own headers object, with the endpoint's added.
    const headers = attempts === 1 ? request.headers : { ...request.headers };
    for (const name in endpoint.headers) headers[name] = endpoint.headers[name]!;
    headers.host = api.preserveHost && request.clientHost ? request.clientHost : endpoint.target.host;
    // Without compression the backend is not told that the client accepts compressed bodies.
    if (!endpoint.http.useCompression) delete headers['accept-encoding'];
    const startedAt = hrtime.bigint();
    try {
      const call: Call = {
        origin: endpoint.target.origin,
        path: joinPath(endpoint.base, request.pathInfo, request.query),
        method: request.method as Dispatcher.HttpMethod,
        headers,
        body: request.body,
        headersTimeout: timeout,
        bodyTimeout: endpoint.http.readTimeout,
      };
      let response = await send(endpoint, call);
      if (endpoint.http.followRedirects) response = await followRedirects(endpoint, call, response);
      return { ok: true, endpoint, response, startedAt };
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      last = TIMEOUTS.has(code)
        ? { ok: false, status: 504, key: 'REQUEST_TIMEOUT', message: 'Request timeout', endpoint }
        : {
            ok: false,
            status: 502,
            key: 'GATEWAY_CLIENT_CONNECTION_ERROR',
            message: 'Bad gateway',
            endpoint,
          };
      // A streamed body was consumed by the first attempt: it cannot be sent again.
      if (request.body !== undefined && !Buffer.isBuffer(request.body)) break;
      if (request.onFailover !== undefined && attempt + 1 < attempts) request.onFailover(endpoint, last.key);
    }
  }
  return last;
}

type Call = Dispatcher.DispatchOptions & {
  headers: Record<string, string | string[]>;
  body: Buffer | Readable | undefined;
};

/** Sends the call; resolves with the backend's status and headers (the body follows). */
function send(endpoint: EndpointRuntime, call: Call): Promise<UpstreamCall> {
  const handler = new UpstreamCall();
  endpoint.upstream.dispatch(call, handler);
  return handler.started;
}

/**
 * Follows the backend's redirects (followRedirects), at most MAX_REDIRECTS. A 303, or a 301/302 after a
 * POST, goes on as a GET without body (as browsers do); other redirects send the request again, so they
 * are followed only when its body can be sent again (none, or buffered): a streamed body was consumed.
 * Credentials are not sent to another origin.
 */
async function followRedirects(
  endpoint: EndpointRuntime,
  first: Call,
  response: UpstreamCall,
): Promise<UpstreamCall> {
  let call = first;
  for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string') return response;
    if (call.body !== undefined && !Buffer.isBuffer(call.body)) return response;
    let next: URL;
    try {
      next = new URL(location, `${call.origin as string}${call.path}`);
    } catch {
      return response;
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return response;
    const status = response.statusCode;
    const asGet =
      (status === 303 && call.method !== 'HEAD') ||
      ((status === 301 || status === 302) && call.method === 'POST');
    await response.dump();
    const headers = { ...call.headers };
    if (asGet) {
      for (const name of Object.keys(headers)) if (name.startsWith('content-')) delete headers[name];
    }
    if (next.origin !== call.origin) {
      headers.host = next.host;
      delete headers.authorization;
      delete headers.cookie;
    }
    call = {
      ...call,
      origin: next.origin,
      path: `${next.pathname}${next.search}`,
      method: asGet ? 'GET' : call.method,
      body: asGet ? undefined : call.body,
      headers,
    };
    response = await send(endpoint, call);
  }
  return response;
}
