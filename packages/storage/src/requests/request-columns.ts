import { REQUEST_COLUMNS } from './request-values.js';
import type { NewRequestRow, RequestTable } from './requests.table.js';

/**
 * Request records encoded by column, as the gateway hands them to its SQLite writer thread: the numbers
 * in one Float64Array, every other value as an index into the part's list of strings, each distinct
 * string listed once (a part of a busy API repeats its API, plan, application, method, path, host and
 * endpoint on every row). The two arrays' memory moves to the thread without a copy; only the short list
 * of strings is cloned. Encoding costs the gateway's thread about half what the records' rows as
 * positional values cost to clone (0.7-0.8 against 1.5 us a record, measured on parts of 100); the
 * writer thread stores each part as a segment (request-segments.ts).
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

/**
 * Records encoded as they come: each record's values go into the columns when it is added, so that the
 * gateway's reporter keeps no record object while its part fills (the objects die with their request,
 * in the young generation, however long the part waits). `take` hands the part over and starts the next.
 */
export class RequestColumnsBuilder {
  private numbers: Float64Array<ArrayBuffer>;
  private codes: Uint32Array<ArrayBuffer>;
  private strings: (string | null)[] = [null];
  private readonly known = new Map<string, number>();
  private capacity: number;
  /** Records added since the last `take`. */
  count = 0;

  constructor(capacity: number) {
    this.capacity = Math.max(capacity, 1);
    this.numbers = new Float64Array(this.capacity * NUMBER_COLUMNS.length);
    this.codes = new Uint32Array(this.capacity * STRING_COLUMNS.length);
  }

  add(row: NewRequestRow): void {
    if (this.count === this.capacity) this.grow();
    const record = row as unknown as Record<string, unknown>;
    const { numbers, codes, strings, known } = this;
    let n = this.count * NUMBER_COLUMNS.length;
    let s = this.count * STRING_COLUMNS.length;
    for (let i = 0; i < NUMBER_COLUMNS.length; i++) {
      const v = record[NUMBER_COLUMNS[i]!];
      numbers[n++] = typeof v === 'number' ? v : NaN;
    }
    for (let i = 0; i < STRING_COLUMNS.length; i++) {
      const v = record[STRING_COLUMNS[i]!];
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
    this.count++;
  }

  /**
   * The records added so far, encoded, and an empty part for the next ones. The arrays handed over hold
   * exactly `count` records (a part that did not fill is copied out, and the builder keeps its arrays).
   */
  take(): RequestColumns {
    const count = this.count;
    const full = count === this.capacity;
    const columns: RequestColumns = {
      count,
      numbers: full ? this.numbers.buffer : this.numbers.slice(0, count * NUMBER_COLUMNS.length).buffer,
      codes: full ? this.codes.buffer : this.codes.slice(0, count * STRING_COLUMNS.length).buffer,
      strings: this.strings,
    };
    // A full part's arrays leave with it (postMessage moves them): the next part gets new ones.
    if (full) {
      this.numbers = new Float64Array(this.capacity * NUMBER_COLUMNS.length);
      this.codes = new Uint32Array(this.capacity * STRING_COLUMNS.length);
    }
    this.strings = [null];
    this.known.clear();
    this.count = 0;
    return columns;
  }

  private grow(): void {
    this.capacity *= 2;
    const numbers = new Float64Array(this.capacity * NUMBER_COLUMNS.length);
    numbers.set(this.numbers);
    const codes = new Uint32Array(this.capacity * STRING_COLUMNS.length);
    codes.set(this.codes);
    this.numbers = numbers;
    this.codes = codes;
  }
}

/** Encodes the records (see `RequestColumns`); `requestColumnsTransfer` lists what moves without a copy. */
export function encodeRequests(rows: readonly NewRequestRow[]): RequestColumns {
  const builder = new RequestColumnsBuilder(rows.length);
  for (const row of rows) builder.add(row);
  return builder.take();
}

/** The memory of encoded records that postMessage moves instead of copying. */
export const requestColumnsTransfer = (columns: RequestColumns): ArrayBuffer[] => [
  columns.numbers,
  columns.codes,
];
