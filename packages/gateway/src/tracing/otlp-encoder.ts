import type { AttributeValue, Attributes, HrTime, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/**
 * The OTLP `ExportTraceServiceRequest` of a batch of finished spans, in protobuf: what the official
 * exporter's serializer writes, in one pass. At sampling 1 the gateway encodes three or more spans per
 * call, and the official serializer (a size-estimating pass, then a writer that copies strings and ids
 * byte by byte) cost about as much as the rest of tracing together. Here strings and ids are written
 * by Buffer's native writers, attribute keys (a small fixed set) are encoded once and copied, each
 * resource is encoded once, and nested lengths are reserved and fixed up in place.
 */
export function encodeTraceRequest(spans: ReadableSpan[]): Uint8Array {
  const out = new Writer(spans.length * 640 + 1024);
  for (const [resource, scopes] of groupByResource(spans)) {
    out.tag(1, LEN); // ExportTraceServiceRequest.resource_spans
    const resourceSpans = out.begin(3);
    out.raw(encodedResource(resource));
    for (const scopeSpans of scopes.values()) {
      out.tag(2, LEN); // ResourceSpans.scope_spans
      const scopeStart = out.begin(3);
      const scope = scopeSpans[0]!.instrumentationScope;
      out.tag(1, LEN); // ScopeSpans.scope
      const scopeMessage = out.begin(1);
      out.stringField(1, scope.name);
      if (scope.version) out.stringField(2, scope.version);
      out.end(scopeMessage, 1);
      for (const span of scopeSpans) {
        out.tag(2, LEN); // ScopeSpans.spans
        writeSpan(out, span);
      }
      if (scope.schemaUrl) out.stringField(3, scope.schemaUrl);
      out.end(scopeStart, 3);
    }
    if (resource.schemaUrl) out.stringField(3, resource.schemaUrl);
    out.end(resourceSpans, 3);
  }
  return out.finish();
}

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

function groupByResource(spans: ReadableSpan[]): Map<Resource, Map<Scope, ReadableSpan[]>> {
  const resources = new Map<Resource, Map<Scope, ReadableSpan[]>>();
  for (const span of spans) {
    let scopes = resources.get(span.resource);
    if (!scopes) resources.set(span.resource, (scopes = new Map()));
    const list = scopes.get(span.instrumentationScope);
    if (list) list.push(span);
    else scopes.set(span.instrumentationScope, [span]);
  }
  return resources;
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
  for (const link of span.links) {
    out.tag(13, LEN);
    const linkStart = out.begin(1);
    writeContext(out, link.context);
    writeAttributes(out, 4, link.attributes ?? {});
    out.countField(5, link.droppedAttributesCount ?? 0);
    out.tag(6, I32);
    out.fixed32(flagsOf(link.context.traceFlags, link.context.isRemote));
    out.end(linkStart, 1);
  }
  out.countField(14, span.droppedLinksCount);
  out.tag(15, LEN); // Status: message (2), code (3)
  const status = out.begin(1);
  if (span.status.message) out.stringField(2, span.status.message);
  out.tag(3, VARINT);
  out.varint(span.status.code);
  out.end(status, 1);
  out.tag(16, I32);
  out.fixed32(flagsOf(context.traceFlags, parent?.isRemote));
  out.end(start, 2);
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

/** Repeated KeyValue in `field`. */
function writeAttributes(out: Writer, field: number, attributes: Attributes): void {
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (value === undefined || value === null) continue;
    out.tag(field, LEN);
    const start = out.begin(1);
    out.raw(encodedKey(key));
    out.tag(2, LEN); // KeyValue.value
    const valueStart = out.begin(1);
    writeAnyValue(out, value);
    out.end(valueStart, 1);
    out.end(start, 1);
  }
}

/** KeyValue.key with its tag and length: attribute keys are a small set, encoded once each. */
const keys = new Map<string, Buffer>();
const MAX_CACHED_KEYS = 1024;

function encodedKey(key: string): Buffer {
  let bytes = keys.get(key);
  if (bytes) return bytes;
  const out = new Writer(key.length * 3 + 8);
  out.stringField(1, key);
  bytes = Buffer.from(out.finish());
  if (keys.size < MAX_CACHED_KEYS) keys.set(key, bytes);
  return bytes;
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

/** A growing buffer of protobuf wire data. */
class Writer {
  private buf: Buffer;
  private pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n + 1024));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  raw(bytes: Buffer): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  /** An unsigned varint below 2^32. */
  varint(value: number): void {
    this.room(5);
    let v = value >>> 0;
    while (v > 0x7f) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }

  /** A signed integer as int64 (two's complement, ten bytes when negative). */
  int64(value: number): void {
    if (value >= 0 && value <= 0xffffffff) return this.varint(value);
    this.room(10);
    let n = BigInt.asUintN(64, BigInt(value));
    while (n > 0x7fn) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  /** A count field, left out when 0 (the protobuf default). */
  countField(field: number, count: number): void {
    if (!count) return;
    this.tag(field, VARINT);
    this.varint(count);
  }

  fixed32(value: number): void {
    this.room(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    this.room(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** An HrTime as fixed64 nanoseconds since the epoch, exact (seconds * 1e9 exceeds 2^53). */
  time([seconds, nanos]: HrTime): void {
    this.room(8);
    const low16 = seconds % 0x10000;
    const high = (seconds - low16) / 0x10000; // seconds = high * 2^16 + low16
    const a = low16 * 1e9 + nanos; // < 2^46
    const b = high * 1e9; // < 2^46 until the year 2^32 s; the total is b * 2^16 + a
    const bLow = b % 0x10000;
    const bHigh = (b - bLow) / 0x10000; // b * 2^16 = bHigh * 2^32 + bLow * 2^16
    const aLow = a % 0x100000000;
    const low = bLow * 0x10000 + aLow; // < 2^33
    const carry = low >= 0x100000000 ? 1 : 0;
    this.buf.writeUInt32LE(low % 0x100000000, this.pos);
    this.buf.writeUInt32LE((bHigh + (a - aLow) / 0x100000000 + carry) >>> 0, this.pos + 4);
    this.pos += 8;
  }

  /**
   * A length-delimited string field. Short ASCII strings (most: names, ids, addresses) are copied here
   * (a call into Buffer's native writer costs more than that); the others by the native UTF-8 writer.
   */
  stringField(field: number, value: string): void {
    this.tag(field, LEN);
    const n = value.length;
    if (n < 0x80) {
      this.room(n + 1);
      const buf = this.buf;
      const start = this.pos;
      buf[start] = n;
      let at = start + 1;
      for (let i = 0; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c > 0x7f) {
          at = -1;
          break;
        }
        buf[at++] = c;
      }
      if (at >= 0) {
        this.pos = at;
        return;
      }
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.varint(length);
    this.room(length);
    this.pos += this.buf.write(value, this.pos, length, 'utf8');
  }

  /** A trace or span id (lowercase hex, as the SDK makes them) as its bytes. */
  idField(field: number, hex: string): void {
    this.tag(field, LEN);
    const length = hex.length >>> 1;
    this.varint(length);
    this.room(length);
    const buf = this.buf;
    let at = this.pos;
    for (let i = 0; i < hex.length; i += 2) {
      const high = NIBBLES[hex.charCodeAt(i)];
      const low = NIBBLES[hex.charCodeAt(i + 1)];
      if (!(high! >= 0 && low! >= 0)) {
        // Not hex (never from the SDK): what the native decoder makes of it, zero-padded.
        buf.fill(0, this.pos, this.pos + length);
        buf.write(hex, this.pos, length, 'hex');
        this.pos += length;
        return;
      }
      buf[at++] = (high! << 4) | low!;
    }
    this.pos = at;
  }

  /** Reserves `reserved` bytes for the length of the message that follows; returns where it starts. */
  begin(reserved: number): number {
    this.room(reserved);
    const start = this.pos;
    this.pos += reserved;
    return start;
  }

  /** Writes the message's length at its start, moving the message when the length needs more or fewer bytes. */
  end(start: number, reserved: number): void {
    const length = this.pos - start - reserved;
    const size =
      length < 0x80 ? 1 : length < 0x4000 ? 2 : length < 0x200000 ? 3 : length < 0x10000000 ? 4 : 5;
    if (size !== reserved) {
      this.room(size - reserved);
      this.buf.copyWithin(start + size, start + reserved, this.pos);
      this.pos += size - reserved;
    }
    let v = length;
    let at = start;
    while (v > 0x7f) {
      this.buf[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[at] = v;
  }
}

/** Hex digit values by character code (-1: not a hex digit). */
const NIBBLES = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLES['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLES['0123456789ABCDEF'.charCodeAt(i)] = i;
}
