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
import { RandomIdGenerator, SamplingDecision } from '@opentelemetry/sdk-trace-base';

/** Where an ended span goes: the gateway's batch processor, which encodes it at once. */
export interface EndedSpanSink {
  onEnd(span: ReadableSpan): void;
}

const ORIGIN = performance.timeOrigin;
/** Now, in milliseconds since the epoch, to the microsecond: the monotonic clock from the process's origin. */
const nowMs = (): number => ORIGIN + performance.now();

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.round((ms - seconds * 1000) * 1e6);
  return nanos >= 1e9 ? [seconds + 1, nanos - 1e9] : [seconds, nanos];
}

function msOf(input: TimeInput): number {
  if (typeof input === 'number') return input;
  if (input instanceof Date) return input.getTime();
  return input[0] * 1000 + input[1] / 1e6;
}

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
const NO_LINKS: Link[] = [];
const NO_EVENTS: TimedEvent[] = [];

/**
 * A span of a call through the gateway, recorded: what the SDK's span keeps, without what a call's
 * spans never need (span limits, per-span metrics, two clocks, attribute checks for values the gateway
 * itself sets). It is the SDK's `ReadableSpan` for the encoder and the OTLP serializer, and the API's
 * `Span` for code that records on it.
 */
export class GatewaySpan implements Span, ReadableSpan {
  readonly attributes: Attributes = {};
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  status: SpanStatus = UNSET;
  startTime: HrTime;
  endTime: HrTime = [0, 0];
  ended = false;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  private readonly startMs: number;
  private endMs = 0;

  constructor(
    private readonly tracer: GatewayTracer,
    public name: string,
    readonly kind: SpanKind,
    private readonly context: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
  ) {
    this.startMs = nowMs();
    this.startTime = hrTime(this.startMs);
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

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (!this.ended && value !== undefined && value !== null && key) this.attributes[key] = value;
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
    this.endTime = hrTime(this.endMs);
    this.ended = true;
    this.tracer.sink.onEnd(this);
  }
}

/**
 * The spans of the gateway's calls: the configured (official) sampler decides on each call's server
 * span, with the caller's context as parent; its children are recorded with it. Ids come from the
 * SDK's generator, and every span ends in the sink (the encoding batch processor).
 */
export class GatewayTracer {
  private readonly ids = new RandomIdGenerator();

  constructor(
    private readonly sampler: Sampler,
    readonly resource: Resource,
    readonly scope: InstrumentationScope,
    readonly sink: EndedSpanSink,
  ) {}

  /** A call's server span, child of the caller's span in `parent` when valid; not recording when not sampled. */
  startServer(name: string, parent: Context): Span {
    const caller = trace.getSpanContext(parent);
    const valid = caller !== undefined && trace.isSpanContextValid(caller);
    const traceId = valid ? caller.traceId : this.ids.generateTraceId();
    const spanId = this.ids.generateSpanId();
    const decision = this.sampler.shouldSample(parent, traceId, name, SpanKind.SERVER, {}, []);
    const traceState = decision.traceState ?? (valid ? caller.traceState : undefined);
    if (decision.decision === SamplingDecision.NOT_RECORD)
      return trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.NONE, traceState });
    const traceFlags =
      decision.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE;
    const span = new GatewaySpan(
      this,
      name,
      SpanKind.SERVER,
      { traceId, spanId, traceFlags, traceState },
      valid ? caller : undefined,
    );
    if (decision.attributes) span.setAttributes(decision.attributes);
    return span;
  }

  /** A child span of a recording span (plan security, a policy, the upstream call). */
  startChild(name: string, kind: SpanKind, parent: GatewaySpan): GatewaySpan {
    const of = parent.spanContext();
    return new GatewaySpan(
      this,
      name,
      kind,
      {
        traceId: of.traceId,
        spanId: this.ids.generateSpanId(),
        traceFlags: of.traceFlags,
        traceState: of.traceState,
      },
      of,
    );
  }
}
