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

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

/**
 * A record's values in NUMBER_COLUMNS order, and below in STRING_COLUMNS order, each read by its name.
 * A loop over the column names made every read a keyed load of a changing name, which V8 answers from its
 * shared megamorphic cache, and in the gateway (whose HTTP code fills that cache too) mostly from a miss:
 * 3 us a request of 280 on a slow VM, in a profile of an API key call. `request-columns.test.ts` gives
 * every column a value of its own and requires the decoded records equal, so these lists cannot drift
 * from `REQUEST_COLUMNS`.
 */
function readNumbers(r: NewRequestRow, out: Float64Array, at: number): void {
  out[at] = num(r.timestamp);
  out[at + 1] = num(r.status);
  out[at + 2] = num(r.request_content_length);
  out[at + 3] = num(r.response_content_length);
  out[at + 4] = num(r.response_time);
  out[at + 5] = num(r.api_response_time);
  out[at + 6] = num(r.latency);
  out[at + 7] = num(r.has_log);
}

function readStrings(r: NewRequestRow, out: unknown[]): void {
  out[0] = r.id;
  out[1] = r.transaction_id;
  out[2] = r.gateway;
  out[3] = r.api_id;
  out[4] = r.application_id;
  out[5] = r.plan_id;
  out[6] = r.subscription_id;
  out[7] = r.api_key;
  out[8] = r.user;
  out[9] = r.tenant;
  out[10] = r.method;
  out[11] = r.path;
  out[12] = r.uri;
  out[13] = r.mapped_path;
  out[14] = r.host;
  out[15] = r.endpoint;
  out[16] = r.remote_address;
  out[17] = r.user_agent;
  out[18] = r.security_type;
  out[19] = r.error_key;
  out[20] = r.message;
  out[21] = r.trace_id;
  out[22] = r.user_agent_name;
  out[23] = r.os_name;
  out[24] = r.geo_country;
  out[25] = r.geo_city;
}

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
  /**
   * Per string column, the last value listed and its code: a busy API repeats most of its values from
   * one record to the next, and a comparison of two short strings costs less than a Map lookup, which
   * also computes the hash of every string made for the request (host, address, user agent).
   */
  private readonly lastText: (string | undefined)[] = STRING_COLUMNS.map(() => undefined);
  private readonly lastCode = new Uint32Array(STRING_COLUMNS.length);
  private readonly values: unknown[] = STRING_COLUMNS.map(() => null);
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
    const { codes, strings, known, lastText, lastCode, values } = this;
    readNumbers(row, this.numbers, this.count * NUMBER_COLUMNS.length);
    readStrings(row, values);
    let s = this.count * STRING_COLUMNS.length;
    for (let i = 0; i < STRING_COLUMNS.length; i++) {
      const v = values[i];
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
      if (text === lastText[i]) {
        codes[s++] = lastCode[i]!;
        continue;
      }
      let code = known.get(text);
      if (code === undefined) {
        code = strings.push(text) - 1;
        known.set(text, code);
      }
      lastText[i] = text;
      lastCode[i] = code;
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
    this.lastText.fill(undefined);
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
