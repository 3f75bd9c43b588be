import type { AttributeValue, Attributes, Link, SpanContext, SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { GatewaySpan, nanosOf } from './gateway-span.js';
import type { BufferPool } from './protobuf-writer.js';
import { I32, I64, LEN, VARINT, Writer } from './protobuf-writer.js';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];

/** An encoded `ExportTraceServiceRequest` and the number of spans in it. */
export interface EncodedSpans {
  bytes: Uint8Array;
  count: number;
  /** Gives the bytes' buffer back to the batch's pool once sent: `bytes` must not be read after. */
  release(): void;
}

/**
 * Finished spans encoded as they are added, in OTLP protobuf: `finish()` gives the
 * `ExportTraceServiceRequest` the official exporter's serializer would write for them. A batch
 * processor that encodes each span when it ends holds bytes rather than span objects until the export,
 * so the spans die young (cheap to collect) instead of aging in a queue into the old generation.
 * Strings and ids are written by Buffer's native writers, attribute keys (a small fixed set) are encoded
 * once and copied, each resource is encoded once, and nested lengths are reserved and fixed up in place.
 */
export class EncodedSpanBatch {
  /** The spans' encoded `ScopeSpans.spans` fields, by resource and scope. */
  private readonly groups = new Map<Resource, Map<Scope, Writer>>();
  private size = 0;
  count = 0;

  /** With a pool, the batch writes into buffers that earlier batches gave back (see `BufferPool`). */
  constructor(
    private readonly initialSize = 64 * 1024,
    private readonly pool?: BufferPool,
  ) {}

  add(span: ReadableSpan): void {
    let scopes = this.groups.get(span.resource);
    if (!scopes) this.groups.set(span.resource, (scopes = new Map()));
    let out = scopes.get(span.instrumentationScope);
    if (!out) scopes.set(span.instrumentationScope, (out = new Writer(this.initialSize, this.pool)));
    const before = out.length;
    try {
      out.tag(2, LEN); // ScopeSpans.spans
      if (span instanceof GatewaySpan) writeGatewaySpan(out, span);
      else writeSpan(out, span);
    } catch (error) {
      // A span that cannot be encoded leaves nothing of itself, not even an empty group.
      out.truncate(before);
      if (before === 0) scopes.delete(span.instrumentationScope);
      if (scopes.size === 0) this.groups.delete(span.resource);
      throw error;
    }
    this.size += out.length - before;
    this.count++;
  }

  finish(): EncodedSpans {
    const out = new Writer(this.size + 1024, this.pool);
    for (const [resource, scopes] of this.groups) {
      out.tag(1, LEN); // ExportTraceServiceRequest.resource_spans
      const resourceSpans = out.begin(3);
      out.raw(encodedResource(resource));
      for (const [scope, spans] of scopes) {
        out.tag(2, LEN); // ResourceSpans.scope_spans
        const scopeStart = out.begin(3);
        out.tag(1, LEN); // ScopeSpans.scope
        const scopeMessage = out.begin(1);
        out.stringField(1, scope.name);
        if (scope.version) out.stringField(2, scope.version);
        out.end(scopeMessage, 1);
        out.raw(spans.finish());
        spans.release();
        if (scope.schemaUrl) out.stringField(3, scope.schemaUrl);
        out.end(scopeStart, 3);
      }
      if (resource.schemaUrl) out.stringField(3, resource.schemaUrl);
      out.end(resourceSpans, 3);
    }
    this.groups.clear();
    return { bytes: out.finish(), count: this.count, release: () => out.release() };
  }
}

/** The OTLP `ExportTraceServiceRequest` of finished spans, in protobuf. */
export function encodeTraceRequest(spans: ReadableSpan[]): Uint8Array {
  const batch = new EncodedSpanBatch(spans.length * 640 + 1024);
  for (const span of spans) batch.add(span);
  return batch.finish().bytes;
}

/** ResourceSpans.resource, encoded once per resource (a provider has one for its whole life). */
const resources = new WeakMap<Resource, Buffer>();

function encodedResource(resource: Resource): Buffer {
  const known = resources.get(resource);
  if (known) return known;
  const out = new Writer(1024);
  out.tag(1, LEN);
  const start = out.begin(2);
  writeAttributes(out, 1, resource.attributes);
  out.end(start, 2);
  const bytes = Buffer.from(out.finish());
  if (!resource.asyncAttributesPending) resources.set(resource, bytes);
  return bytes;
}

function writeSpan(out: Writer, span: ReadableSpan): void {
  const start = out.begin(2);
  const context = span.spanContext();
  out.idField(1, context.traceId);
  out.idField(2, context.spanId);
  const state = context.traceState?.serialize();
  if (state) out.stringField(3, state);
  const parent = span.parentSpanContext;
  if (parent?.spanId) out.idField(4, parent.spanId);
  out.stringField(5, span.name);
  // SpanKind is offset by one on the wire (0 is "unspecified").
  out.tag(6, VARINT);
  out.varint(span.kind + 1);
  out.tag(7, I64);
  out.time(span.startTime);
  out.tag(8, I64);
  out.time(span.endTime);
  writeAttributes(out, 9, span.attributes);
  out.countField(10, span.droppedAttributesCount);
  for (const event of span.events) writeEvent(out, event);
  out.countField(12, span.droppedEventsCount);
  for (const link of span.links) writeLink(out, link);
  out.countField(14, span.droppedLinksCount);
  writeStatusAndFlags(out, span.status, flagsOf(context.traceFlags, parent?.isRemote));
  out.end(start, 2);
}

/** A gateway's span: `writeSpan`'s fields, from its id words and times in milliseconds. */
function writeGatewaySpan(out: Writer, span: GatewaySpan): void {
  const start = out.begin(2);
  const id = span.traceId;
  out.traceIdField(1, id.w0, id.w1, id.w2, id.w3);
  out.spanIdField(2, span.idHigh, span.idLow);
  const state = span.traceState?.serialize();
  if (state) out.stringField(3, state);
  if (span.parentHigh !== 0 || span.parentLow !== 0) out.spanIdField(4, span.parentHigh, span.parentLow);
  writeName(out, span.name);
  out.tag(6, VARINT);
  out.varint(span.kind + 1);
  out.tag(7, I64);
  out.nanos(nanosOf(span.startMs));
  out.tag(8, I64);
  out.nanos(nanosOf(span.endMs));
  writeGatewayAttributes(out, span);
  for (const event of span.events) writeEvent(out, event);
  for (const link of span.links) writeLink(out, link);
  writeStatusAndFlags(out, span.status, flagsOf(span.traceFlags, span.caller?.isRemote));
  out.end(start, 2);
}

/**
 * The name field (5) of the gateway's spans, encoded once per name: a gateway's span names are few
 * (a method and route, `plan security`, `policy <id>`, a method), and the same string objects.
 */
const encodedNames = new Map<string, Buffer>();
const MAX_ENCODED_NAMES = 1024;

function writeName(out: Writer, name: string): void {
  const encoded = encodedNames.get(name);
  if (encoded) return out.raw(encoded);
  const start = out.length;
  out.stringField(5, name);
  if (encodedNames.size < MAX_ENCODED_NAMES) encodedNames.set(name, out.copyFrom(start));
}

/** A span's last fields: its status (message 2, code 3) and its flags. */
function writeStatusAndFlags(out: Writer, status: SpanStatus, flags: number): void {
  out.tag(15, LEN);
  const start = out.begin(1);
  if (status.message) out.stringField(2, status.message);
  out.tag(3, VARINT);
  out.varint(status.code);
  out.end(start, 1);
  out.tag(16, I32);
  out.fixed32(flags);
}

function writeLink(out: Writer, link: Link): void {
  out.tag(13, LEN);
  const linkStart = out.begin(1);
  writeContext(out, link.context);
  writeAttributes(out, 4, link.attributes ?? {});
  out.countField(5, link.droppedAttributesCount ?? 0);
  out.tag(6, I32);
  out.fixed32(flagsOf(link.context.traceFlags, link.context.isRemote));
  out.end(linkStart, 1);
}

function writeContext(out: Writer, context: SpanContext): void {
  out.idField(1, context.traceId);
  out.idField(2, context.spanId);
  const state = context.traceState?.serialize();
  if (state) out.stringField(3, state);
}

function writeEvent(out: Writer, event: TimedEvent): void {
  out.tag(11, LEN);
  const start = out.begin(1);
  out.tag(1, I64);
  out.time(event.time);
  out.stringField(2, event.name);
  writeAttributes(out, 3, event.attributes ?? {});
  out.countField(4, event.droppedAttributesCount ?? 0);
  out.end(start, 1);
}

/** Span flags: the trace flags, and whether the parent's context came from another process. */
const flagsOf = (traceFlags: number, remote: boolean | undefined): number =>
  (traceFlags & 0xff) | 0x100 | (remote ? 0x200 : 0);

/**
 * What is known of an attribute key: its encoded `KeyValue.key`, and the last two values it had, each
 * with its whole encoded KeyValue (its length included) once that value came again. Most of a call's
 * attributes repeat from call to call (API, plan, method, route, addresses, status), some alternate
 * between the spans of a call (the server's port and the backend's): those are copied in one piece; a
 * value that changes every call (a request id) costs two comparisons more.
 */
interface KnownKey {
  name: string;
  key: Buffer;
  value: unknown;
  keyValue: Buffer | undefined;
  previous: unknown;
  previousKeyValue: Buffer | undefined;
}
const known = new Map<string, KnownKey>();
const MAX_KNOWN_KEYS = 1024;

/** Repeated KeyValue in `field`. */
function writeAttributes(out: Writer, field: number, attributes: Attributes): void {
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined && value !== null) writeAttribute(out, field, key, value);
  }
}

/**
 * The attributes that the gateway's spans of one kind repeated from call to call, encoded in one piece:
 * the first ones that had the same keys and values as on the span of that kind before (the method,
 * the server, the API, the plan...). The call's own come after them (its status, client, ids). A run is
 * learnt from two spans in a row, and learnt again on a miss and every `RELEARN` spans, so that it
 * follows the traffic (a run shared by two APIs' calls is shorter than one API's).
 */
interface AttributeRun {
  keys: string[];
  values: AttributeValue[];
  count: number;
  bytes: Buffer | undefined;
  hits: number;
}
const runs = new Map<number, AttributeRun>();
const RELEARN = 256;

function writeGatewayAttributes(out: Writer, span: GatewaySpan): void {
  const keys = span.attributeKeys;
  const values = span.attributeValues;
  const run = runs.get(span.kind);
  let from = 0;
  if (run?.bytes && run.hits < RELEARN && repeats(run, keys, values)) {
    run.hits++;
    out.raw(run.bytes);
    from = run.count;
  } else {
    let common = 0;
    if (run) {
      const max = Math.min(keys.length, run.keys.length);
      while (
        common < max &&
        keys[common] === run.keys[common] &&
        values[common] === run.values[common] &&
        typeof values[common] !== 'object'
      )
        common++;
    }
    const start = out.length;
    for (; from < common; from++) writeAttribute(out, 9, keys[from]!, values[from]!);
    runs.set(span.kind, {
      keys: keys.slice(),
      values: values.slice(),
      count: common,
      bytes: common > 1 ? out.copyFrom(start) : undefined,
      hits: 0,
    });
  }
  // The call's own attributes: their keys' entries are remembered by position, for the next span of this kind.
  const entries = (tailEntries[span.kind] ??= []);
  for (; from < keys.length; from++) {
    const key = keys[from]!;
    let entry = entries[from];
    if (entry === undefined || entry.name !== key) entries[from] = entry = knownKey(key);
    out.tag(9, LEN);
    writeValueOf(out, entry, values[from]!);
  }
}

/** By span kind, the entries of the attribute keys last seen at each position. */
const tailEntries: KnownKey[][] = [];

/** Whether the span's attributes begin with the run's (keys and values the same, none an array). */
function repeats(run: AttributeRun, keys: string[], values: AttributeValue[]): boolean {
  if (run.count > keys.length) return false;
  for (let i = 0; i < run.count; i++) {
    const value = values[i];
    if (keys[i] !== run.keys[i] || value !== run.values[i] || typeof value === 'object') return false;
  }
  return true;
}

function writeAttribute(out: Writer, field: number, key: string, value: AttributeValue): void {
  out.tag(field, LEN);
  writeValueOf(out, knownKey(key), value);
}

/** A KeyValue (after its tag) of a known key: copied whole when the value is one of its last two. */
function writeValueOf(out: Writer, entry: KnownKey, value: AttributeValue): void {
  if (typeof value === 'object') {
    writeKeyValue(out, entry, value);
    return;
  }
  if (entry.value === value) {
    if (entry.keyValue) out.raw(entry.keyValue);
    else entry.keyValue = out.copyFrom(writeKeyValue(out, entry, value));
    return;
  }
  if (entry.previous === value) {
    if (entry.previousKeyValue) out.raw(entry.previousKeyValue);
    else entry.previousKeyValue = out.copyFrom(writeKeyValue(out, entry, value));
    return;
  }
  writeKeyValue(out, entry, value);
  entry.previous = entry.value;
  entry.previousKeyValue = entry.keyValue;
  entry.value = value;
  entry.keyValue = undefined;
}

/** Writes the KeyValue message (its length first); answers where it starts. */
function writeKeyValue(out: Writer, entry: KnownKey, value: AttributeValue): number {
  const start = out.begin(1);
  out.raw(entry.key);
  out.tag(2, LEN); // KeyValue.value
  const valueStart = out.begin(1);
  writeAnyValue(out, value);
  out.end(valueStart, 1);
  out.end(start, 1);
  return start;
}

function knownKey(key: string): KnownKey {
  let entry = known.get(key);
  if (entry) return entry;
  const out = new Writer(key.length * 3 + 8);
  out.stringField(1, key);
  entry = {
    name: key,
    key: Buffer.from(out.finish()),
    value: undefined,
    keyValue: undefined,
    previous: undefined,
    previousKeyValue: undefined,
  };
  // Keys are a small fixed set; past the bound (never seen), keys are encoded each time.
  if (known.size < MAX_KNOWN_KEYS) known.set(key, entry);
  return entry;
}

/** AnyValue: string 1, bool 2, int 3, double 4, array 5, bytes 7. */
function writeAnyValue(out: Writer, value: AttributeValue | null | undefined): void {
  if (typeof value === 'string') out.stringField(1, value);
  else if (typeof value === 'boolean') {
    out.tag(2, VARINT);
    out.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
      out.tag(3, VARINT);
      out.int64(value);
    } else {
      out.tag(4, I64);
      out.double(value);
    }
  } else if (Array.isArray(value)) {
    out.tag(5, LEN);
    const start = out.begin(1);
    for (const item of value as unknown[]) {
      out.tag(1, LEN); // ArrayValue.values
      const itemStart = out.begin(1);
      writeAnyValue(out, item as AttributeValue | null | undefined);
      out.end(itemStart, 1);
    }
    out.end(start, 1);
  }
}
