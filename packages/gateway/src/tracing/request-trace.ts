import type { IncomingMessage } from 'node:http';
import type { Span, TextMapGetter, TraceState } from '@opentelemetry/api';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { NewRequestRow } from '@portico/storage';
import type { CompiledApi, CompiledPlan, CompiledStep } from '../router/compiled.js';
import type { EndpointAttributes, ServerOf } from './call-spans.js';
import { CallSpans } from './call-spans.js';
import type { GatewayTracer } from './gateway-span.js';
import { NO_EVENTS, eventNow, nowMs } from './gateway-span.js';
import { spanHex, word } from './trace-ids.js';
import { API_SAMPLING_RATIO } from './provider.js';

const propagator = new W3CTraceContextPropagator();

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

  /** The last two pairs asked for: a call asks for its route twice (before and after its policy path). */
  private lastA = '';
  private lastB = '';
  private last = '';
  private previousA = '';
  private previousB = '';
  private previous = '';

  get(a: string, b: string): string {
    if (a === this.lastA && b === this.lastB && this.last !== '') return this.last;
    if (a === this.previousA && b === this.previousB && this.previous !== '') return this.previous;
    const value = this.lookup(a, b);
    this.previousA = this.lastA;
    this.previousB = this.lastB;
    this.previous = this.last;
    this.lastA = a;
    this.lastB = b;
    this.last = value;
    return value;
  }

  private lookup(a: string, b: string): string {
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
 * The spans of one call through the gateway: the server span (child of the caller's `traceparent`
 * when it is valid; a malformed one starts a new trace), plan security, one per policy, the upstream
 * client span whose context is sent to the backend. Exists only when tracing is on for the call's API.
 * A sampled call's server, security and client spans are the fields of one `CallSpans`, ended with the
 * call; a policy's span is a `GatewaySpan` child of its server span.
 */
export class RequestTrace {
  /** Whether the server span is sampled: children are made only then. */
  readonly recording: boolean;
  /** The call's spans, when recording. */
  private readonly call: CallSpans | undefined;
  /** Not recording: the server span's context as a `traceparent`, which goes upstream as it is. */
  private readonly unrecorded: string | undefined;
  /** Not recording: the trace state that goes upstream with it. */
  private readonly unrecordedState: TraceState | undefined;

  constructor(
    private readonly tracer: GatewayTracer,
    req: IncomingMessage,
    record: NewRequestRow,
    api: CompiledApi | undefined,
    contextPath: string | undefined,
  ) {
    const traced = req.headers.traceparent !== undefined;
    let parent = traced ? propagator.extract(ROOT_CONTEXT, req.headers, headerGetter) : ROOT_CONTEXT;
    const ratio = api?.tracing.samplingRatio;
    if (ratio !== undefined) parent = parent.setValue(API_SAMPLING_RATIO, ratio);
    const route = contextPath === undefined ? undefined : routes.get(contextPath, '');
    const name = route ? spanNames.get(record.method, route) : record.method;
    // The samplers decide on the trace alone: the attributes are kept only for a sampled call.
    const d = tracer.decide(name, parent);
    record.trace_id = d.traceId.hex;
    if (!d.recorded) {
      this.recording = false;
      this.call = undefined;
      // What the W3C propagator would write for this context, without making the context.
      this.unrecorded = `00-${d.traceId.hex}-${spanHex(word(), word() || 1)}-00`;
      this.unrecordedState = d.traceState;
      return;
    }
    const call = new CallSpans(tracer, name, record.method, d.traceId, d.traceFlags, d.traceState, d.caller);
    if (d.attributes && Object.keys(d.attributes).length > 0) call.samplerAttributes = d.attributes;
    call.server = serverOf(req.headers.host ?? '');
    call.httpVersion = req.httpVersion;
    call.route = route;
    call.api = api;
    this.recording = true;
    this.call = call;
    this.unrecorded = undefined;
    this.unrecordedState = undefined;
  }

  /** The policy path matched: the route and the span's name say it. */
  routed(method: string, contextPath: string, flowPath: string | undefined): void {
    const call = this.call;
    if (!call) return;
    const route = routes.get(contextPath, flowPath ?? '');
    if (route === call.route) return;
    call.route = route;
    call.name = spanNames.get(method, route);
  }

  /** The plan the call was admitted by, and its application (ids and names; never a key or token). */
  admitted(
    plan: CompiledPlan,
    application: { id?: string | undefined; name?: string | null | undefined },
    securityType: string | undefined,
  ): void {
    const call = this.call;
    if (!call) return;
    call.plan = plan.plan;
    call.securityType = securityType || undefined;
    call.applicationId = application.id || undefined;
    call.applicationName = application.name || undefined;
  }

  /** Plan security begins (its span, a child of the call's). */
  securityStarted(): void {
    this.call?.startSecurity();
  }

  /** Plan security is done; a refusal gives its span an error and, for limits, an event on the call's. */
  securityEnded(refused: { key: string } | undefined): void {
    const call = this.call;
    if (!call) return;
    call.endSecurity(refused?.key);
    if (refused) this.limitEvent(call, refused.key);
  }

  /** A child span of the call (a policy); undefined when the call is not sampled. */
  child(name: string, attributes?: Record<string, string>): Span | undefined {
    if (!this.call) return undefined;
    const span = this.tracer.startChild(name, SpanKind.INTERNAL, this.call);
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
      if (this.call) this.limitEvent(this.call, refused.key);
    }
    span.end();
  }

  private limitEvent(call: CallSpans, key: string): void {
    const event = LIMIT_EVENTS[key];
    if (!event || call.endMs > 0) return;
    const timed = eventNow(event, { 'portico.error.key': key });
    if (call.events === NO_EVENTS) call.events = [timed];
    else call.events.push(timed);
  }

  /**
   * Starts the upstream call's client span and writes its context (`traceparent`, `tracestate`) into
   * the headers sent to the backend. Not sampled: the server span's context goes upstream as it is.
   */
  upstream(headers: Record<string, string | string[]>, method: string): void {
    const call = this.call;
    if (call) {
      headers.traceparent = call.startClient(method);
      const state = call.traceState?.serialize();
      if (state) headers.tracestate = state;
      else if (headers.tracestate !== undefined) delete headers.tracestate;
      return;
    }
    headers.traceparent = this.unrecorded!;
    const state = this.unrecordedState?.serialize();
    if (state) headers.tracestate = state;
    else if (headers.tracestate !== undefined) delete headers.tracestate;
  }

  /** An endpoint failed and failover tries another one: an event of the client span. */
  failover(endpoint: URL, key: string): void {
    const call = this.call;
    if (!call || call.clientStartMs === 0 || call.clientEndMs > 0) return;
    call.retries++;
    const timed = eventNow('portico.failover', {
      'portico.endpoint': endpointAttributes(endpoint).endpoint,
      'portico.error.key': key,
    });
    if (call.clientEvents === NO_EVENTS) call.clientEvents = [timed];
    else call.clientEvents.push(timed);
  }

  /** The upstream call's outcome: the endpoint that answered (or failed last), its status or error. */
  upstreamDone(endpoint: URL | undefined, status: number | undefined, errorKey?: string): void {
    const call = this.call;
    if (!call || call.clientStartMs === 0 || call.clientEndMs > 0) return;
    if (endpoint) call.endpoint = endpointAttributes(endpoint);
    call.clientStatus = status;
    if (errorKey) {
      call.clientErrorType = errorKey;
      call.clientErrorMessage = errorKey;
    } else if (status !== undefined && status >= 400) {
      call.clientErrorType = String(status);
    }
  }

  /** The call is answered: its status on the server span (5xx is an error), then its spans end. */
  end(record: NewRequestRow): void {
    const call = this.call;
    if (!call || call.endMs > 0) return;
    const now = nowMs();
    if (call.clientStartMs > 0) call.clientEndMs = now;
    call.status = record.status;
    call.errorKey = record.error_key ?? undefined;
    call.remoteAddress = record.remote_address || undefined;
    call.userAgent = record.user_agent || undefined;
    call.requestId = record.id;
    call.transactionId = record.transaction_id;
    call.endMs = now;
    this.tracer.sink.onEnd(call);
  }
}
