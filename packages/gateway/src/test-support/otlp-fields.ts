// OTLP trace messages read field by field, to compare two encodings of the same spans in tests.
import type { Field } from './otlp-decode.js';
import { fieldsOf } from './otlp-decode.js';

/**
 * The OTLP messages' fields: 'str', 'hex' (bytes), 'int' (varint), 'fixed' (fixed32/64), or the
 * message type of a nested message. Enough to read every field either encoder writes.
 */
const SCHEMA: Record<string, Record<number, string>> = {
  Request: { 1: 'ResourceSpans' },
  ResourceSpans: { 1: 'Resource', 2: 'ScopeSpans', 3: 'str' },
  Resource: { 1: 'KeyValue', 2: 'int' },
  ScopeSpans: { 1: 'Scope', 2: 'Span', 3: 'str' },
  Scope: { 1: 'str', 2: 'str', 3: 'KeyValue', 4: 'int' },
  Span: {
    ...{ 1: 'hex', 2: 'hex', 3: 'str', 4: 'hex', 5: 'str', 6: 'int', 7: 'fixed', 8: 'fixed' },
    ...{ 9: 'KeyValue', 10: 'int', 11: 'Event', 12: 'int', 13: 'Link', 14: 'int', 15: 'Status', 16: 'fixed' },
  },
  Event: { 1: 'fixed', 2: 'str', 3: 'KeyValue', 4: 'int' },
  Link: { 1: 'hex', 2: 'hex', 3: 'str', 4: 'KeyValue', 5: 'int', 6: 'fixed' },
  Status: { 2: 'str', 3: 'int' },
  KeyValue: { 1: 'str', 2: 'AnyValue' },
  AnyValue: { 1: 'str', 2: 'int', 3: 'int', 4: 'fixed', 5: 'ArrayValue', 7: 'hex' },
  ArrayValue: { 1: 'AnyValue' },
};

/**
 * A message as a plain tree, field by field in field order (repeated fields in wire order), without the
 * fields that hold their protobuf default (0, empty string): two encodings of the same message read
 * the same whatever they chose to leave out.
 */
export function readMessage(bytes: Buffer, type: string): Record<number, unknown[]> {
  const fields = SCHEMA[type]!;
  const tree: Record<number, unknown[]> = {};
  for (const field of fieldsOf(bytes) as Field[]) {
    const kind = fields[field.no];
    if (!kind) throw new Error(`${type} has no field ${field.no}`);
    const value = field.value;
    let read_: unknown;
    if (kind === 'str') read_ = (value as Buffer).toString('utf8');
    else if (kind === 'hex') read_ = (value as Buffer).toString('hex');
    else if (kind === 'int' || kind === 'fixed') read_ = value as bigint;
    else read_ = readMessage(value as Buffer, kind);
    if (read_ === '' || read_ === 0n) continue;
    (tree[field.no] ??= []).push(read_);
  }
  return tree;
}
