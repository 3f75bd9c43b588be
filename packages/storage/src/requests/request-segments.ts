import type { RequestColumns } from './request-columns.js';
import { NUMBER_COLUMNS, STRING_COLUMNS } from './request-columns.js';
import type { RowValues } from './request-values.js';
import { REQUEST_COLUMNS, REQUEST_LOG_COLUMNS } from './request-values.js';

/**
 * A request segment: one part of a gateway's reports stored whole, as the gateway encoded it by column
 * (`RequestColumns`), in one row of `request_segments`. Gateways append segments (one row for about a
 * hundred requests: what keeps reporting within issue 18's CPU budget); the management server's
 * indexer (segment-indexer.ts) turns them into the `requests` rows, logs and rollups that the logs
 * screens and dashboards query, and deletes them in the same transaction.
 *
 * The bytes: a little-endian u32 giving the length of a UTF-8 JSON header, the header, zeros up to a
 * multiple of 8, then the part's numbers (Float64, `count` rows of the header's `numbers` columns) and
 * string codes (Uint32, `count` rows of its `strings` columns). The header names its columns, so that a
 * management server of another version reads what it knows of a segment written by any gateway
 * (a rolling upgrade): a column it does not know is skipped, a column the segment lacks is null.
 */
export interface SegmentHeader {
  /** Format version: 1. */
  v: 1;
  count: number;
  numbers: readonly string[];
  strings: readonly string[];
  /** The part's distinct strings: `values[code]`; code 0 is no value. */
  values: readonly (string | null)[];
  logColumns: readonly string[];
  /** Logged requests' headers and bodies, positional values of `logColumns`. */
  logs: readonly RowValues[];
}

export interface EncodedSegment {
  count: number;
  first_timestamp: number;
  last_timestamp: number;
  data: Buffer;
}

export const SEGMENT_FORMAT = 1;

/** Bytes that are not a segment this version reads. */
export class SegmentFormatError extends Error {
  constructor(reason: string) {
    super(`request segment: ${reason}`);
    this.name = 'SegmentFormatError';
  }
}

const TIMESTAMP_AT = NUMBER_COLUMNS.indexOf('timestamp');

/** A part's bytes, with the time range the indexer and retention read without decoding it. */
export function encodeSegment(columns: RequestColumns, logs: readonly RowValues[]): EncodedSegment {
  const header: SegmentHeader = {
    v: SEGMENT_FORMAT,
    count: columns.count,
    numbers: NUMBER_COLUMNS,
    strings: STRING_COLUMNS,
    values: columns.strings,
    logColumns: REQUEST_LOG_COLUMNS,
    logs,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align8(4 + json.length);
  const data = Buffer.alloc(start + columns.numbers.byteLength + columns.codes.byteLength);
  data.writeUInt32LE(json.length, 0);
  json.copy(data, 4);
  data.set(new Uint8Array(columns.numbers), start);
  data.set(new Uint8Array(columns.codes), start + columns.numbers.byteLength);
  const numbers = new Float64Array(columns.numbers);
  let first = Infinity;
  let last = -Infinity;
  for (let r = 0; r < columns.count; r++) {
    const t = numbers[r * NUMBER_COLUMNS.length + TIMESTAMP_AT]!;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return {
    count: columns.count,
    first_timestamp: columns.count ? first : 0,
    last_timestamp: columns.count ? last : 0,
    data,
  };
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** Where each of the segment's columns goes in this version's positional values (-1: not kept). */
const positions = (names: readonly string[], into: readonly string[]) => names.map((c) => into.indexOf(c));

/**
 * The segment's requests as positional values of this version's REQUEST_COLUMNS, and its logs as those of
 * REQUEST_LOG_COLUMNS. Throws on bytes that are not a segment.
 */
export function decodeSegment(data: Uint8Array): { requests: RowValues[]; logs: RowValues[] } {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length < 4) throw new SegmentFormatError('too short');
  const length = bytes.readUInt32LE(0);
  let header: SegmentHeader;
  try {
    header = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as SegmentHeader;
  } catch {
    throw new SegmentFormatError('unreadable header');
  }
  if (header?.v !== SEGMENT_FORMAT) throw new SegmentFormatError(`unknown format ${String(header?.v)}`);
  const { count } = header;
  const start = align8(4 + length);
  const numbersLength = count * header.numbers.length * 8;
  const codesLength = count * header.strings.length * 4;
  if (bytes.length < start + numbersLength + codesLength) throw new SegmentFormatError('truncated');
  // Copies: typed arrays need aligned memory, and the driver's buffer may sit anywhere in its pool.
  const numbers = new Float64Array(
    bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + numbersLength),
  );
  const codesFrom = bytes.byteOffset + start + numbersLength;
  const codes = new Uint32Array(bytes.buffer.slice(codesFrom, codesFrom + codesLength));
  const numberAt = positions(header.numbers, REQUEST_COLUMNS);
  const stringAt = positions(header.strings, REQUEST_COLUMNS);
  const requests: RowValues[] = new Array<RowValues>(count);
  let n = 0;
  let s = 0;
  for (let r = 0; r < count; r++) {
    const values: RowValues = new Array<string | number | null>(REQUEST_COLUMNS.length).fill(null);
    for (const at of numberAt) {
      const v = numbers[n++]!;
      if (at >= 0) values[at] = Number.isNaN(v) ? null : v;
    }
    for (const at of stringAt) {
      const v = header.values[codes[s++]!] ?? null;
      if (at >= 0) values[at] = v;
    }
    requests[r] = values;
  }
  const logAt = positions(header.logColumns, REQUEST_LOG_COLUMNS);
  const logs = header.logs.map((log) => {
    const values: RowValues = new Array<string | number | null>(REQUEST_LOG_COLUMNS.length).fill(null);
    log.forEach((v, i) => {
      if (logAt[i]! >= 0) values[logAt[i]!] = v;
    });
    return values;
  });
  return { requests, logs };
}

/** What a database offers the indexer: the segments in order, and one transaction to index some. */
export interface SegmentStore {
  /** The oldest segments: their ids and request counts. */
  next(limit: number): Promise<{ id: number; count: number }[]>;
  /**
   * Those of the given segments still there become rows, logs and rollups and are deleted, in one
   * transaction: a request is in the rows exactly when its segment is gone.
   */
  index(ids: readonly number[]): Promise<IndexedCount>;
  /** Deletes a segment set aside. */
  remove(id: number): Promise<void>;
}

export interface IndexedCount {
  segments: number;
  requests: number;
}
