import type { AttributeValue, Attributes, Link, SpanContext, SpanStatus } from '@opentelemetry/api';
import type { TimedEvent } from '@opentelemetry/sdk-trace-base';
import { I32, I64, LEN, VARINT, Writer } from './protobuf-writer.js';

/*
 * The OTLP fields that every span encoder writes (the SDK's spans, the gateway's spans, a call's spans):
 * names, attributes (keys encoded once, repeated values copied whole), events, links, status and flags.
 */

/**
 * The name field (5) of the gateway's spans, encoded once per name: a gateway's span names are few
 * (a method and route, `plan security`, `policy <id>`, a method), and the same string objects.
 */
const encodedNames = new Map<string, Buffer>();
const MAX_ENCODED_NAMES = 1024;

export function writeName(out: Writer, name: string): void {
  const encoded = encodedNames.get(name);
  if (encoded) return out.raw(encoded);
  const start = out.length;
  out.stringField(5, name);
  if (encodedNames.size < MAX_ENCODED_NAMES) encodedNames.set(name, out.copyFrom(start));
}

/** A span's last fields: its status (message 2, code 3) and its flags. */
export function writeStatusAndFlags(out: Writer, status: SpanStatus, flags: number): void {
  out.tag(15, LEN);
  const start = out.begin(1);
  if (status.message) out.stringField(2, status.message);
  out.tag(3, VARINT);
  out.varint(status.code);
  out.end(start, 1);
  out.tag(16, I32);
  out.fixed32(flags);
}

export function writeLink(out: Writer, link: Link): void {
  out.tag(13, LEN);
  const linkStart = out.begin(1);
  writeContext(out, link.context);
  writeAttributes(out, 4, link.attributes ?? {});
  out.countField(5, link.droppedAttributesCount ?? 0);
  out.tag(6, I32);
  out.fixed32(flagsOf(link.context.traceFlags, link.context.isRemote));
  out.end(linkStart, 1);
}

export function writeContext(out: Writer, context: SpanContext): void {
  out.idField(1, context.traceId);
  out.idField(2, context.spanId);
  const state = context.traceState?.serialize();
  if (state) out.stringField(3, state);
}

export function writeEvent(out: Writer, event: TimedEvent): void {
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
export const flagsOf = (traceFlags: number, remote: boolean | undefined): number =>
  (traceFlags & 0xff) | 0x100 | (remote ? 0x200 : 0);

/**
 * What is known of an attribute key: its encoded `KeyValue.key`, and the last two values it had, each
 * with its whole encoded KeyValue (its length included) once that value came again. Most of a call's
 * attributes repeat from call to call (API, plan, method, route, addresses, status), some alternate
 * between the spans of a call (the server's port and the backend's): those are copied in one piece; a
 * value that changes every call (a request id) costs two comparisons more.
 */
export interface KnownKey {
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
export function writeAttributes(out: Writer, field: number, attributes: Attributes): void {
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined && value !== null) writeAttribute(out, field, key, value);
  }
}

export function writeAttribute(out: Writer, field: number, key: string, value: AttributeValue): void {
  out.tag(field, LEN);
  writeValueOf(out, knownKey(key), value);
}

/** A KeyValue (after its tag) of a known key: copied whole when the value is one of its last two. */
export function writeValueOf(out: Writer, entry: KnownKey, value: AttributeValue): void {
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
export function writeKeyValue(out: Writer, entry: KnownKey, value: AttributeValue): number {
  const start = out.begin(1);
  out.raw(entry.key);
  out.tag(2, LEN); // KeyValue.value
  const valueStart = out.begin(1);
  writeAnyValue(out, value);
  out.end(valueStart, 1);
  out.end(start, 1);
  return start;
}

export function knownKey(key: string): KnownKey {
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
export function writeAnyValue(out: Writer, value: AttributeValue | null | undefined): void {
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
