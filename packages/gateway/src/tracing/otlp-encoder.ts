import type { AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { writeCallSpans } from './call-encoder.js';
import { CallSpans } from './call-spans.js';
import { GatewaySpan, nanosOf } from './gateway-span.js';
import {
  flagsOf,
  knownKey,
  writeAttribute,
  writeAttributes,
  writeEvent,
  writeLink,
  writeName,
  writeStatusAndFlags,
  writeValueOf,
} from './otlp-fields.js';
import type { KnownKey } from './otlp-fields.js';
import type { BufferPool } from './protobuf-writer.js';
import { I64, LEN, VARINT, Writer } from './protobuf-writer.js';

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

  add(span: ReadableSpan | CallSpans): void {
    const call = span instanceof CallSpans ? span : undefined;
    const resource = call ? call.tracer.resource : (span as ReadableSpan).resource;
    const scope = call ? call.tracer.scope : (span as ReadableSpan).instrumentationScope;
    let scopes = this.groups.get(resource);
    if (!scopes) this.groups.set(resource, (scopes = new Map()));
    let out = scopes.get(scope);
    if (!out) scopes.set(scope, (out = new Writer(this.initialSize, this.pool)));
    const before = out.length;
    let added = 1;
    try {
      if (call) added = writeCallSpans(out, call);
      else {
        out.tag(2, LEN); // ScopeSpans.spans
        if (span instanceof GatewaySpan) writeGatewaySpan(out, span);
        else writeSpan(out, span as ReadableSpan);
      }
    } catch (error) {
      // A span that cannot be encoded leaves nothing of itself, not even an empty group.
      out.truncate(before);
      if (before === 0) scopes.delete(scope);
      if (scopes.size === 0) this.groups.delete(resource);
      throw error;
    }
    this.size += out.length - before;
    this.count += added;
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
export function encodeTraceRequest(spans: (ReadableSpan | CallSpans)[]): Uint8Array {
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
