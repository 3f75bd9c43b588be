import type { Attributes, SpanContext } from '@opentelemetry/api';
import { TraceFlags } from '@opentelemetry/api';
import type { TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { EndedCall, GatewayTracer, SpanParent } from './gateway-span.js';
import { NO_EVENTS, nowMs } from './gateway-span.js';
import type { TraceId } from './trace-ids.js';
import { spanHex, word, wordAt } from './trace-ids.js';

/** What the client span says of an endpoint, made once per endpoint (its URL lives as long as its deploy). */
export interface EndpointAttributes {
  address: string;
  port: number;
  /** Only the scheme, host and path: the endpoint's credentials and query stay out of spans. */
  endpoint: string;
}

/** The address and port of a Host header. */
export interface ServerOf {
  host: string;
  address: string;
  port: number | undefined;
}

/** Ids and names of what admitted a call (never a key or token). */
export interface NamedId {
  id: string;
  name: string;
}

/**
 * The three spans that every sampled call through the gateway makes, recorded as plain fields of one
 * object: the server span, its plan-security child and the upstream client span. A call's spans have
 * a fixed set of attributes, most of them the same from call to call (method, route, server, API,
 * plan, application, endpoint); the encoder (`call-encoder.ts`) writes them from these fields and
 * copies the repeated ones in one piece, instead of each span keeping its own attribute lists. Spans of
 * policies stay `GatewaySpan`s, children of this call's server span.
 */
export class CallSpans implements SpanParent, EndedCall {
  // The server span.
  readonly idHigh = word();
  readonly idLow = word() || 1;
  readonly startMs = nowMs();
  endMs = 0;
  /** What the sampler added (the built-in samplers add nothing). */
  samplerAttributes: Attributes | undefined = undefined;
  server: ServerOf | undefined = undefined;
  httpVersion = '';
  route: string | undefined = undefined;
  api: NamedId | undefined = undefined;
  plan: NamedId | undefined = undefined;
  securityType: string | undefined = undefined;
  applicationId: string | undefined = undefined;
  applicationName: string | undefined = undefined;
  status = 0;
  errorKey: string | undefined = undefined;
  remoteAddress: string | undefined = undefined;
  userAgent: string | undefined = undefined;
  requestId = '';
  transactionId = '';
  events: TimedEvent[] = NO_EVENTS;

  // The plan-security span (ended when `securityEndMs` is set).
  securityHigh = 0;
  securityLow = 0;
  securityStartMs = 0;
  securityEndMs = 0;
  /** The key of a refusal by plan security. */
  securityError: string | undefined = undefined;

  // The upstream client span (ended when `clientEndMs` is set).
  clientHigh = 0;
  clientLow = 0;
  clientStartMs = 0;
  clientEndMs = 0;
  clientMethod = '';
  endpoint: EndpointAttributes | undefined = undefined;
  retries = 0;
  clientStatus: number | undefined = undefined;
  /** `error.type` of the upstream call: its error key, or its status from 400 on. */
  clientErrorType: string | undefined = undefined;
  /** The status message: the error key when the call failed (a status alone has none). */
  clientErrorMessage: string | undefined = undefined;
  clientEvents: TimedEvent[] = NO_EVENTS;

  private context: SpanContext | undefined = undefined;
  /** The caller's span id words (0 and 0: the call started the trace), and whether it came from another process. */
  readonly callerHigh: number;
  readonly callerLow: number;
  readonly callerRemote: boolean;

  constructor(
    readonly tracer: GatewayTracer,
    public name: string,
    readonly method: string,
    readonly traceId: TraceId,
    readonly traceFlags: number,
    readonly traceState: SpanContext['traceState'],
    /** The caller's span (another process), parent of the server span. */
    caller: SpanContext | undefined,
  ) {
    this.callerHigh = caller ? wordAt(caller.spanId, 0) : 0;
    this.callerLow = caller ? wordAt(caller.spanId, 8) : 0;
    this.callerRemote = caller?.isRemote === true;
  }

  /** The server span's context (for a policy's span, or a test). */
  spanContext(): SpanContext {
    return (this.context ??= {
      traceId: this.traceId.hex,
      spanId: spanHex(this.idHigh, this.idLow),
      traceFlags: this.traceFlags,
      traceState: this.traceState,
    });
  }

  spanCount(): number {
    return 1 + (this.securityEndMs > 0 ? 1 : 0) + (this.clientEndMs > 0 ? 1 : 0);
  }

  startSecurity(): void {
    this.securityHigh = word();
    this.securityLow = word() || 1;
    this.securityStartMs = nowMs();
  }

  endSecurity(errorKey: string | undefined): void {
    if (this.securityStartMs === 0 || this.securityEndMs > 0) return;
    this.securityError = errorKey;
    this.securityEndMs = nowMs();
  }

  /** Starts the client span: its `traceparent` (version 00, trace id, its span id, flags). */
  startClient(method: string): string {
    this.clientMethod = method;
    this.clientHigh = word();
    this.clientLow = word() || 1;
    this.clientStartMs = nowMs();
    const sampled = this.traceFlags & TraceFlags.SAMPLED ? '01' : '00';
    return `00-${this.traceId.hex}-${spanHex(this.clientHigh, this.clientLow)}-${sampled}`;
  }
}
