import { REQUEST_COLUMNS } from './request-values.js';
import type { NewRequestRow, RequestTable } from './requests.table.js';

/**
 * Request records encoded by column, as the gateway hands them to its SQLite writer thread: the numbers
 * in one Float64Array, every other value as an index into the part's list of strings, each distinct
 * string listed once (a part of a busy API repeats its API, plan, application, method, path, host and
 * endpoint on every row). The two arrays' memory moves to the thread without a copy; only the short list
 * of strings is cloned. A part of 100 gateway records costs the gateway's thread about half what its
 * rows as positional values cost to clone (0.7-0.8 against 1.5 us a record); the writer thread stores
 * it as a segment (request-segments.ts).
 */
export interface RequestColumns {
  count: number;
  /** `count` rows of NUMBER_COLUMNS, in that order; NaN where a record had no value. */
  numbers: ArrayBuffer;
  /** `count` rows of STRING_COLUMNS, in that order: an index into `strings` (0: no value). */
  codes: ArrayBuffer;
  strings: (string | null)[];
}

type NumberColumn = {
  [K in keyof RequestTable]: RequestTable[K] extends number ? K : never;
}[keyof RequestTable];

/** The request columns whose values are numbers: the type requires every one of them, and no other. */
const NUMBER_COLUMN: Record<NumberColumn, true> = {
  timestamp: true,
  status: true,
  request_content_length: true,
  response_content_length: true,
  response_time: true,
  api_response_time: true,
  latency: true,
  has_log: true,
};
const isNumber = (c: string) => Object.hasOwn(NUMBER_COLUMN, c);
/** The order of the columns in `RequestColumns.numbers` and `RequestColumns.codes`. */
export const NUMBER_COLUMNS = REQUEST_COLUMNS.filter(isNumber);
export const STRING_COLUMNS = REQUEST_COLUMNS.filter((c) => !isNumber(c));
/** Columns whose value differs on every record: listed without looking them up first. */
const UNIQUE = new Set<string>(['id', 'transaction_id', 'trace_id']);
const STRING_UNIQUE = STRING_COLUMNS.map((c) => UNIQUE.has(c));

/** Encodes the records (see `RequestColumns`); `requestColumnsTransfer` lists what moves without a copy. */
export function encodeRequests(rows: readonly NewRequestRow[]): RequestColumns {
  const count = rows.length;
  const numbers = new Float64Array(count * NUMBER_COLUMNS.length);
  const codes = new Uint32Array(count * STRING_COLUMNS.length);
  const strings: (string | null)[] = [null];
  const known = new Map<string, number>();
  let n = 0;
  let s = 0;
  for (let r = 0; r < count; r++) {
    const row = rows[r]! as Record<string, unknown>;
    for (let i = 0; i < NUMBER_COLUMNS.length; i++) {
      const v = row[NUMBER_COLUMNS[i]!];
      numbers[n++] = typeof v === 'number' ? v : NaN;
    }
    for (let i = 0; i < STRING_COLUMNS.length; i++) {
      const v = row[STRING_COLUMNS[i]!];
      if (v === null || v === undefined) {
        codes[s++] = 0;
        continue;
      }
      const text = typeof v === 'string' ? v : String(v);
      if (STRING_UNIQUE[i]) {
        // A transaction id is most often the request's own id, the string listed just before it.
        const lastCode = strings.length - 1;
        codes[s++] = strings[lastCode] === text ? lastCode : strings.push(text) - 1;
        continue;
      }
      let code = known.get(text);
      if (code === undefined) {
        code = strings.push(text) - 1;
        known.set(text, code);
      }
      codes[s++] = code;
    }
  }
  return { count, numbers: numbers.buffer, codes: codes.buffer, strings };
}

/** The memory of encoded records that postMessage moves instead of copying. */
export const requestColumnsTransfer = (columns: RequestColumns): ArrayBuffer[] => [
  columns.numbers,
  columns.codes,
];
