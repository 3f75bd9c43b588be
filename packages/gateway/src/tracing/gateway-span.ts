import type {
  Attributes,
  AttributeValue,
  Context,
  Exception,
  HrTime,
  Link,
  Span,
  SpanContext,
  SpanStatus,
  TimeInput,
} from '@opentelemetry/api';
import { SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, Sampler, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { performance } from 'node:perf_hooks';
import { TraceId, spanHex, word, wordAt } from './trace-ids.js';

/** The span a gateway span is a child of: a call's server span (`CallSpans`) or another gateway span. */
export interface SpanParent {
  readonly traceId: TraceId;
  readonly traceFlags: number;
  readonly traceState: SpanContext['traceState'];
  readonly idHigh: number;
  readonly idLow: number;
  spanContext(): SpanContext;
}

/** Where an ended span goes: the gateway's batch processor, which encodes it at once. */
export interface EndedSpanSink {
  onEnd(span: ReadableSpan | EndedCall): void;
}

/** A call's spans recorded as one (`CallSpans`), which end together with the call. */
export interface EndedCall {
  readonly traceFlags: number;
  /** How many spans it holds. */
  spanCount(): number;
}

const ORIGIN = performance.timeOrigin;
/**
 * Now, in milliseconds since the epoch, to the microsecond: the monotonic clock from the process's origin.
 * `performance` is perf_hooks' own: the global one is a lazy accessor, looked up again on every call.
 */
export const nowMs = (): number => ORIGIN + performance.now();

/** A time in milliseconds as nanoseconds: an integer in a double (the encoder writes it as it is). */
export const nanosOf = (ms: number): number => Math.round(ms * 1e6);

/** The same nanoseconds as an HrTime: the encoder and the official serializer write the same value. */
function hrTime(ms: number): HrTime {
  const ns = nanosOf(ms);
  let seconds = Math.floor(ns / 1e9);
  let nanos = ns - seconds * 1e9;
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  } else if (nanos >= 1e9) {
    seconds += 1;
    nanos -= 1e9;
  }
  return [seconds, nanos];
}

/** An event that happens now, as a span keeps it. */
export function eventNow(name: string, attributes: Attributes): TimedEvent {
  return { name, attributes, time: hrTime(nowMs()), droppedAttributesCount: 0 };
}

function msOf(input: TimeInput): number {
  if (typeof input === 'number') return input;
  if (input instanceof Date) return input.getTime();
  return input[0] * 1000 + input[1] / 1e6;
}

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
const NO_LINKS: Link[] = [];
export const NO_EVENTS: TimedEvent[] = [];

/**
 * A span of a call through the gateway, recorded: what the SDK's span keeps, without what a call's
 * spans never need (span limits, per-span metrics, two clocks, attribute checks for values the gateway
 * itself sets). It is the SDK's `ReadableSpan` for the encoder and the OTLP serializer, and the API's
 * `Span` for code that records on it.
 */
export class GatewaySpan implements Span, ReadableSpan, SpanParent {
  /** The attributes in the order first set: two lists, which the encoder reads without an object's lookups. */
  readonly attributeKeys: string[] = [];
  readonly attributeValues: AttributeValue[] = [];
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  status: SpanStatus = UNSET;
  ended = false;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  /** The span id's two words; the parent span's, when there is a parent (hi 0 and lo 0: none). */
  readonly idHigh = word();
  readonly idLow = word() || 1;
  readonly parentHigh: number;
  readonly parentLow: number;
  readonly startMs: number;
  endMs = 0;
  /** Made when first asked for: most spans are only encoded, never asked for their context. */
  private context: SpanContext | undefined;

  constructor(
    private readonly tracer: GatewayTracer,
    public name: string,
    readonly kind: SpanKind,
    readonly traceId: TraceId,
    readonly traceFlags: number,
    readonly traceState: SpanContext['traceState'],
    /** The caller's span (another process), parent of a server span. */
    readonly caller: SpanContext | undefined,
    private readonly parent: SpanParent | undefined,
  ) {
    this.startMs = nowMs();
    if (parent) {
      this.parentHigh = parent.idHigh;
      this.parentLow = parent.idLow;
    } else if (caller) {
      this.parentHigh = wordAt(caller.spanId, 0);
      this.parentLow = wordAt(caller.spanId, 8);
    } else {
      this.parentHigh = this.parentLow = 0;
    }
  }

  get attributes(): Attributes {
    const attributes: Attributes = {};
    this.attributeKeys.forEach((key, i) => (attributes[key] = this.attributeValues[i]));
    return attributes;
  }

  get parentSpanContext(): SpanContext | undefined {
    return this.caller ?? this.parent?.spanContext();
  }

  get startTime(): HrTime {
    return hrTime(this.startMs);
  }

  get endTime(): HrTime {
    return hrTime(this.endMs);
  }

  get resource(): Resource {
    return this.tracer.resource;
  }

  get instrumentationScope(): InstrumentationScope {
    return this.tracer.scope;
  }

  get duration(): HrTime {
    return hrTime(Math.max(this.endMs - this.startMs, 0));
  }

  /** This span's context as a W3C `traceparent` header: version 00, trace id, span id, flags. */
  traceparent(): string {
    const sampled = this.traceFlags & TraceFlags.SAMPLED ? '01' : '00';
    return `00-${this.traceId.hex}-${this.spanIdHex()}-${sampled}`;
  }

  /** The span id in hex, without making the span's context (which a call's spans never need otherwise). */
  spanIdHex(): string {
    return this.context?.spanId ?? spanHex(this.idHigh, this.idLow);
  }

  spanContext(): SpanContext {
    return (this.context ??= {
      traceId: this.traceId.hex,
      spanId: this.spanIdHex(),
      traceFlags: this.traceFlags,
      traceState: this.traceState,
    });
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (this.ended || value === undefined || value === null || !key) return this;
    const keys = this.attributeKeys;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === key) {
        this.attributeValues[i] = value;
        return this;
      }
    }
    keys.push(key);
    this.attributeValues.push(value);
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const isTime =
      typeof attributesOrTime === 'number' ||
      attributesOrTime instanceof Date ||
      Array.isArray(attributesOrTime);
    const at = time ?? (isTime ? (attributesOrTime as TimeInput) : undefined);
    const event: TimedEvent = {
      name,
      attributes: isTime || !attributesOrTime ? {} : { ...(attributesOrTime as Attributes) },
      time: hrTime(at === undefined ? nowMs() : msOf(at)),
      droppedAttributesCount: 0,
    };
    if (this.events === NO_EVENTS) this.events = [event];
    else this.events.push(event);
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links === NO_LINKS) this.links = [link];
    else this.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.ended) return this;
    // As the SDK: OK is final, UNSET changes nothing, a message belongs to ERROR only.
    if (this.status.code === SpanStatusCode.OK || status.code === SpanStatusCode.UNSET) return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string'
        ? { code: status.code, message: status.message }
        : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else {
      if (exception.name ?? exception.code)
        attributes['exception.type'] = String(exception.name ?? exception.code);
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    this.addEvent('exception', attributes, time);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.endMs = endTime === undefined ? nowMs() : Math.max(msOf(endTime), this.startMs);
    this.ended = true;
    this.tracer.sink.onEnd(this);
  }
}

/** What the sampler decided for a call's server span, and the trace it belongs to. */
export interface ServerDecision {
  traceId: TraceId;
  /** The caller's span (another process), when its context was valid. */
  caller: SpanContext | undefined;
  /** Whether the span records (then sampled or not, as the flags say). */
  recorded: boolean;
  traceFlags: number;
  traceState: SpanContext['traceState'];
  attributes: Attributes | undefined;
}

/**
 * The spans of the gateway's calls: the configured (official) sampler decides on each call's server
 * span, with the caller's context as parent; its children are recorded with it. Ids come from the
 * SDK's generator, and every span ends in the sink (the encoding batch processor).
 */
export class GatewayTracer {
  constructor(
    readonly sampler: Sampler,
    readonly resource: Resource,
    readonly scope: InstrumentationScope,
    readonly sink: EndedSpanSink,
  ) {}

  /** A call's server span, child of the caller's span in `parent` when valid; not recording when not sampled. */
  startServer(name: string, parent: Context): Span {
    const d = this.decide(name, parent);
    if (!d.recorded) {
      const spanId = spanHex(word(), word() || 1);
      return trace.wrapSpanContext({
        traceId: d.traceId.hex,
        spanId,
        traceFlags: TraceFlags.NONE,
        traceState: d.traceState,
      });
    }
    const span = new GatewaySpan(
      this,
      name,
      SpanKind.SERVER,
      d.traceId,
      d.traceFlags,
      d.traceState,
      d.caller,
      undefined,
    );
    if (d.attributes) span.setAttributes(d.attributes);
    return span;
  }

  /**
   * The configured sampler's decision on a call's server span: the trace is the caller's (in `parent`)
   * when its context is valid, else a new one.
   */
  decide(name: string, parent: Context): ServerDecision {
    const caller = trace.getSpanContext(parent);
    const valid = caller !== undefined && trace.isSpanContextValid(caller);
    const traceId = valid ? TraceId.of(caller.traceId) : TraceId.random();
    const decision = this.sampler.shouldSample(parent, traceId.hex, name, SpanKind.SERVER, {}, []);
    return {
      traceId,
      caller: valid ? caller : undefined,
      recorded: decision.decision !== SamplingDecision.NOT_RECORD,
      traceFlags:
        decision.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: decision.traceState ?? (valid ? caller.traceState : undefined),
      attributes: decision.attributes,
    };
  }

  /** A child span of a recording span (plan security, a policy, the upstream call). */
  startChild(name: string, kind: SpanKind, parent: SpanParent): GatewaySpan {
    return new GatewaySpan(
      this,
      name,
      kind,
      parent.traceId,
      parent.traceFlags,
      parent.traceState,
      undefined,
      parent,
    );
  }
}
