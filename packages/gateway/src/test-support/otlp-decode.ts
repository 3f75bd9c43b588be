/**
 * Test support: reads an OTLP `ExportTraceServiceRequest` from its protobuf bytes. A small reader of the
 * protobuf wire format (varints, fixed 32/64-bit values, length-delimited fields) and the OTLP trace
 * messages' field numbers, so that the tests check what the gateway really put on the wire without a
 * generated decoder.
 */

export interface Field {
  no: number;
  /** Varints and fixed values as bigint; length-delimited ones as their bytes. */
  value: bigint | Buffer;
}

function readVarint(buf: Buffer, at: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (at >= buf.length) throw new Error('truncated varint');
    const byte = buf[at++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, at];
    shift += 7n;
    if (shift > 63n) throw new Error('varint too long');
  }
}

/** The fields of one message, in wire order (a repeated field appears once per element). */
export function fieldsOf(buf: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const [tag, next] = readVarint(buf, at);
    at = next;
    const no = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(buf, at);
      fields.push({ no, value });
      at = after;
    } else if (wire === 1) {
      fields.push({ no, value: buf.readBigUInt64LE(at) });
      at += 8;
    } else if (wire === 5) {
      fields.push({ no, value: BigInt(buf.readUInt32LE(at)) });
      at += 4;
    } else if (wire === 2) {
      const [length, after] = readVarint(buf, at);
      const end = after + Number(length);
      if (end > buf.length) throw new Error('truncated field');
      fields.push({ no, value: buf.subarray(after, end) });
      at = end;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  return fields;
}

const bytes = (fields: Field[], no: number): Buffer[] =>
  fields.filter((f) => f.no === no && Buffer.isBuffer(f.value)).map((f) => f.value as Buffer);
const one = (fields: Field[], no: number): Buffer | undefined => bytes(fields, no)[0];
const text = (fields: Field[], no: number): string => one(fields, no)?.toString('utf8') ?? '';
const int = (fields: Field[], no: number): number => {
  const f = fields.find((x) => x.no === no && typeof x.value === 'bigint');
  return f ? Number(BigInt.asIntN(64, f.value as bigint)) : 0;
};

/** AnyValue: string 1, bool 2, int 3, double 4, array 5 (values 1), kvlist 6, bytes 7. */
function anyValue(buf: Buffer | undefined): unknown {
  if (!buf) return undefined;
  const fields = fieldsOf(buf);
  const f = fields[0];
  if (!f) return undefined;
  switch (f.no) {
    case 1:
      return (f.value as Buffer).toString('utf8');
    case 2:
      return f.value === 1n;
    case 3:
      return Number(BigInt.asIntN(64, f.value as bigint));
    case 4: {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(f.value as bigint);
      return b.readDoubleLE(0);
    }
    case 5:
      return bytes(fieldsOf(f.value as Buffer), 1).map(anyValue);
    case 6:
      return attributes(fieldsOf(f.value as Buffer), 1);
    case 7:
      return (f.value as Buffer).toString('hex');
    default:
      return undefined;
  }
}

/** Repeated KeyValue (key 1, value 2) at field `no`, as a plain object. */
function attributes(fields: Field[], no: number): Record<string, unknown> {
  return Object.fromEntries(
    bytes(fields, no).map((kv) => {
      const f = fieldsOf(kv);
      return [text(f, 1), anyValue(one(f, 2))];
    }),
  );
}

export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: number;
  resource: Record<string, unknown>;
}

/**
 * The spans of an ExportTraceServiceRequest: resource_spans 1 → (resource 1 → attributes 1,
 * scope_spans 2 → spans 2). Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6,
 * attributes 9, events 11 (name 2, attributes 3), status 15 (code 3).
 */
export function decodeTraceRequest(body: Buffer): DecodedSpan[] {
  const spans: DecodedSpan[] = [];
  for (const resourceSpans of bytes(fieldsOf(body), 1)) {
    const rs = fieldsOf(resourceSpans);
    const resourceBytes = one(rs, 1);
    const resource = resourceBytes ? attributes(fieldsOf(resourceBytes), 1) : {};
    for (const scopeSpans of bytes(rs, 2)) {
      for (const spanBytes of bytes(fieldsOf(scopeSpans), 2)) {
        const s = fieldsOf(spanBytes);
        const status = one(s, 15);
        spans.push({
          traceId: one(s, 1)?.toString('hex') ?? '',
          spanId: one(s, 2)?.toString('hex') ?? '',
          parentSpanId: one(s, 4)?.toString('hex') ?? '',
          name: text(s, 5),
          kind: int(s, 6),
          attributes: attributes(s, 9),
          events: bytes(s, 11).map((e) => {
            const ef = fieldsOf(e);
            return { name: text(ef, 2), attributes: attributes(ef, 3) };
          }),
          status: status ? int(fieldsOf(status), 3) : 0,
          resource,
        });
      }
    }
  }
  return spans;
}
