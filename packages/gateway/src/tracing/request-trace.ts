import type { IncomingMessage } from 'node:http';
import type { Context, Span, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { NewRequestRow } from '@portico/storage';
import type { CompiledApi, CompiledPlan, CompiledStep } from '../router/compiled.js';
import { GatewaySpan } from './gateway-span.js';
import type { GatewayTracer } from './gateway-span.js';
import { API_SAMPLING_RATIO } from './provider.js';

const propagator = new W3CTraceContextPropagator();

const headerSetter: TextMapSetter<Record<string, string | string[]>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

const headerGetter: TextMapGetter<IncomingMessage['headers']> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** Keys that refuse a call for a rate limit or a quota: recorded as events of the call's span. */
const LIMIT_EVENTS: Record<string, string> = {
  RATE_LIMIT_TOO_MANY_REQUESTS: 'portico.rate_limit.rejected',
  QUOTA_TOO_MANY_REQUESTS: 'portico.quota.rejected',
};

/** Only the scheme, host and path of an endpoint: its credentials and query stay out of spans. */
export function endpointForSpan(target: URL): string {
  return `${target.protocol}//${target.host}${target.pathname}`;
}

/** The HTTP route of a call: the context path, then the policy path that matched (never the raw path). */
export function routeOf(contextPath: string, flowPath: string | undefined): string {
  const base = contextPath === '/' ? '' : contextPath.replace(/\/$/, '');
  if (!flowPath || flowPath === '/') return base || '/';
  return `${base}${flowPath.startsWith('/') ? '' : '/'}${flowPath}`;
}

/**
 * Strings made from two others once, up to a bound (then the memory starts again): a gateway serves few
 * routes, and every call of a route makes the same route and span name.
 */
class PairMemo {
  private readonly made = new Map<string, Map<string, string>>();
  private size = 0;

  constructor(private readonly make: (a: string, b: string) => string) {}

  get(a: string, b: string): string {
    let inner = this.made.get(a);
    let value = inner?.get(b);
    if (value !== undefined) return value;
    value = this.make(a, b);
    if (this.size >= 10_000) {
      this.made.clear();
      this.size = 0;
      inner = undefined;
    }
    if (!inner) this.made.set(a, (inner = new Map()));
    inner.set(b, value);
    this.size++;
    return value;
  }
}

const routes = new PairMemo((contextPath, flowPath) => routeOf(contextPath, flowPath || undefined));
const spanNames = new PairMemo((method, route) => `${method} ${route}`);

/** What the client span says of an endpoint, made once per endpoint (its URL lives as long as its deploy). */
interface EndpointAttributes {
  address: string;
  port: number;
  endpoint: string;
}
const endpoints = new WeakMap<URL, EndpointAttributes>();

function endpointAttributes(target: URL): EndpointAttributes {
  let known = endpoints.get(target);
  if (!known) {
    known = {
      address: target.hostname,
      port: Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
      endpoint: endpointForSpan(target),
    };
    endpoints.set(target, known);
  }
  return known;
}

/** The address and port of a Host header. */
interface ServerOf {
  host: string;
  address: string;
  port: number | undefined;
}
let lastServer: ServerOf = { host: '', address: '', port: undefined };

/** The Host header split into address and port, kept for the next call (a gateway sees few hosts). */
export function serverOf(host: string): ServerOf {
  if (host === lastServer.host) return lastServer;
  const colon = host.lastIndexOf(':');
  const hasPort = colon > 0 && !host.endsWith(']');
  const port = hasPort ? Number(host.slice(colon + 1)) : NaN;
  lastServer = {
    host,
    address: hasPort ? host.slice(0, colon) : host,
    port: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : undefined,
  };
  return lastServer;
}

/**
 * The server span's attributes known when the call comes in: the HTTP semantic conventions', then
 * Portico's. Those of this one client and call (address, user agent, ids) are set when it ends, after
 * the plan's: the encoder copies the run of attributes that repeat from call to call in one piece.
 */
function setServerAttributes(
  span: GatewaySpan,
  req: IncomingMessage,
  record: NewRequestRow,
  api: CompiledApi | undefined,
  route: string | undefined,
): void {
  const server = serverOf(req.headers.host ?? '');
  span.setAttribute('http.request.method', record.method);
  span.setAttribute('url.scheme', 'http');
  span.setAttribute('server.address', server.address);
  if (server.port !== undefined) span.setAttribute('server.port', server.port);
  span.setAttribute('network.protocol.version', req.httpVersion);
  if (route) span.setAttribute('http.route', route);
  if (api) {
    span.setAttribute('portico.api.id', api.id);
    span.setAttribute('portico.api.name', api.name);
  }
}

/**
 * The spans of one call through the gateway: the server span (child of the caller's `traceparent`
 * when it is valid; a malformed one starts a new trace), plan security, one per policy, the upstream
 * client span whose context is sent to the backend. Exists only when tracing is on for the call's API.
 */
export class RequestTrace {
  readonly server: Span;
  /** Whether the server span is sampled: children are made only then. */
  readonly recording: boolean;
  /** The server span when recording. */
  private readonly recorded: GatewaySpan | undefined;
  /** The caller's context (with the API's sampling ratio): the parent of the server span. */
  private readonly parent: Context;
  private client: GatewaySpan | undefined;
  /** The route the server span is named after. */
  private route: string | undefined;
  private retries = 0;

  constructor(
    private readonly tracer: GatewayTracer,
    req: IncomingMessage,
    record: NewRequestRow,
    api: CompiledApi | undefined,
    contextPath: string | undefined,
  ) {
    let parent = propagator.extract(ROOT_CONTEXT, req.headers, headerGetter);
    const ratio = api?.tracing.samplingRatio;
    if (ratio !== undefined) parent = parent.setValue(API_SAMPLING_RATIO, ratio);
    const route = contextPath === undefined ? undefined : routes.get(contextPath, '');
    this.route = route;
    // The samplers decide on the trace alone: the attributes are built only for a sampled call.
    this.server = tracer.startServer(route ? spanNames.get(record.method, route) : record.method, parent);
    this.parent = parent;
    this.recorded = this.server instanceof GatewaySpan ? this.server : undefined;
    this.recording = this.recorded !== undefined;
    record.trace_id = this.recorded ? this.recorded.traceId.hex : this.server.spanContext().traceId;
    if (this.recorded) setServerAttributes(this.recorded, req, record, api, route);
  }

  /** The policy path matched: the route and the span's name say it. */
  routed(method: string, contextPath: string, flowPath: string | undefined): void {
    if (!this.recording) return;
    const route = routes.get(contextPath, flowPath ?? '');
    if (route === this.route) return;
    this.route = route;
    this.server.setAttribute('http.route', route);
    this.server.updateName(spanNames.get(method, route));
  }

  /** The plan the call was admitted by, and its application (ids and names; never a key or token). */
  admitted(
    plan: CompiledPlan,
    application: { id?: string | undefined; name?: string | null | undefined },
    securityType: string | undefined,
  ): void {
    const server = this.recorded;
    if (!server) return;
    server.setAttribute('portico.plan.id', plan.plan.id);
    server.setAttribute('portico.plan.name', plan.plan.name);
    if (securityType) server.setAttribute('portico.plan.security', securityType);
    if (application.id) server.setAttribute('portico.application.id', application.id);
    if (application.name) server.setAttribute('portico.application.name', application.name);
  }

  /** A child span of the call (plan security, a policy); undefined when the call is not sampled. */
  child(name: string, attributes?: Record<string, string>): Span | undefined {
    if (!this.recorded) return undefined;
    const span = this.tracer.startChild(name, SpanKind.INTERNAL, this.recorded);
    if (attributes) span.setAttributes(attributes);
    return span;
  }

  policy(step: CompiledStep): Span | undefined {
    return this.child(`policy ${step.policy.id}`, { 'portico.policy.id': step.policy.id });
  }

  /** Ends a child span; a refusal gives it its status and, for limits, an event on the call's span. */
  endChild(span: Span | undefined, refused?: { key: string; status: number }): void {
    if (!span) return;
    if (refused) {
      span.setAttribute('portico.error.key', refused.key);
      span.setStatus({ code: SpanStatusCode.ERROR, message: refused.key });
      const event = LIMIT_EVENTS[refused.key];
      if (event) this.server.addEvent(event, { 'portico.error.key': refused.key });
    }
    span.end();
  }

  /**
   * Starts the upstream call's client span and writes its context (`traceparent`, `tracestate`) into
   * the headers sent to the backend. Not sampled: the server span's context goes upstream as it is.
   */
  upstream(headers: Record<string, string | string[]>, method: string): void {
    if (this.recorded) {
      const client = (this.client = this.tracer.startChild(method, SpanKind.CLIENT, this.recorded));
      client.setAttribute('http.request.method', method);
      headers.traceparent = client.traceparent();
      const state = client.traceState?.serialize();
      if (state) headers.tracestate = state;
      else if (headers.tracestate !== undefined) delete headers.tracestate;
      return;
    }
    if (headers.traceparent !== undefined) delete headers.traceparent;
    if (headers.tracestate !== undefined) delete headers.tracestate;
    propagator.inject(trace.setSpan(this.parent, this.server), headers, headerSetter);
  }

  /** An endpoint failed and failover tries another one: an event of the client span. */
  failover(endpoint: URL, key: string): void {
    this.retries++;
    this.client?.addEvent('portico.failover', {
      'portico.endpoint': endpointAttributes(endpoint).endpoint,
      'portico.error.key': key,
    });
  }

  /** The upstream call's outcome: the endpoint that answered (or failed last), its status or error. */
  upstreamDone(endpoint: URL | undefined, status: number | undefined, errorKey?: string): void {
    const client = this.client;
    if (!client) return;
    if (endpoint) {
      const known = endpointAttributes(endpoint);
      client.setAttribute('server.address', known.address);
      client.setAttribute('server.port', known.port);
      client.setAttribute('portico.endpoint', known.endpoint);
    }
    if (this.retries > 0) client.setAttribute('http.request.resend_count', this.retries);
    if (status !== undefined) client.setAttribute('http.response.status_code', status);
    if (errorKey) {
      client.setAttribute('error.type', errorKey);
      client.setStatus({ code: SpanStatusCode.ERROR, message: errorKey });
    } else if (status !== undefined && status >= 400) {
      client.setAttribute('error.type', String(status));
      client.setStatus({ code: SpanStatusCode.ERROR });
    }
  }

  /** The call is answered: its status on the server span (5xx is an error), then every span ends. */
  end(record: NewRequestRow): void {
    this.client?.end();
    const server = this.recorded;
    if (!server) return;
    server.setAttribute('http.response.status_code', record.status);
    if (record.error_key) server.setAttribute('portico.error.key', record.error_key);
    if (record.status >= 500) {
      server.setAttribute('error.type', String(record.status));
      server.setStatus({ code: SpanStatusCode.ERROR, message: record.error_key ?? undefined });
    }
    if (record.remote_address) server.setAttribute('client.address', record.remote_address);
    if (record.user_agent) server.setAttribute('user_agent.original', record.user_agent);
    server.setAttribute('portico.request.id', record.id);
    server.setAttribute('portico.transaction.id', record.transaction_id);
    server.end();
  }
}
