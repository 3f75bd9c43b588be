import { describe, expect, it } from 'vitest';
import {
  NUMBER_COLUMNS,
  RequestColumnsBuilder,
  STRING_COLUMNS,
  encodeRequests,
  requestColumnsTransfer,
} from './request-columns.js';
import type { RequestColumns } from './request-columns.js';
import { decodeSegment, encodeSegment } from './request-segments.js';

/** The records as the writer thread stores them and the indexer reads them back. */
const decodeRequests = (columns: RequestColumns) => decodeSegment(encodeSegment(columns, []).data).requests;
import type { NewRequestRow } from './requests.table.js';
import { testRequest as row } from './test-requests.js';
import { REQUEST_COLUMNS, requestValues } from './request-values.js';

describe('request records encoded by column', () => {
  it('read back as the positional values of every column, after the trip to another thread', () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(i));
    const encoded = encodeRequests(rows);
    // What postMessage does: the arrays move, the rest is cloned.
    const received = structuredClone(encoded, { transfer: requestColumnsTransfer(encoded) });
    expect(encoded.numbers.byteLength).toBe(0);
    expect(decodeRequests(received)).toEqual(rows.map(requestValues));
  });

  it('reads every column by its own name: each given a value of its own comes back in its place', () => {
    // Numbers for the number columns, the column's name for the others: any two columns read in each
    // other's place (the encoder lists them by hand) would differ here.
    const distinct = (salt: number) =>
      Object.fromEntries(
        REQUEST_COLUMNS.map((c, i) => [c, NUMBER_COLUMNS.includes(c) ? i * 1000 + salt : `${c}-${salt}`]),
      ) as unknown as NewRequestRow;
    const rows = [distinct(1), distinct(1), distinct(2), { ...distinct(2), api_id: 'other' }];
    expect(decodeRequests(encodeRequests(rows))).toEqual(rows.map(requestValues));
    expect(NUMBER_COLUMNS.length + STRING_COLUMNS.length).toBe(REQUEST_COLUMNS.length);
  });

  it('lists a repeated value once, and every value of the per-record columns', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ ...row(i), api_id: 'api', trace_id: 'same' }));
    const { strings } = encodeRequests(rows);
    expect(strings.filter((s) => s === 'api')).toHaveLength(1);
    expect(strings.filter((s) => s === 'same')).toHaveLength(50);
  });

  it("lists a transaction id that is the request's own id once, and reads it back in both columns", () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({
      ...row(i),
      transaction_id: i < 3 ? `id-${i}` : `tx-${i}`,
    }));
    const encoded = encodeRequests(rows);
    expect(encoded.strings.filter((s) => s === 'id-1')).toHaveLength(1);
    expect(encoded.strings.filter((s) => s === 'tx-4')).toHaveLength(1);
    expect(decodeRequests(encoded)).toEqual(rows.map(requestValues));
  });

  it('keeps an empty string apart from no value, and an unset column as no value', () => {
    const sparse = { ...row(1), tenant: '', user: undefined, trace_id: undefined } as NewRequestRow;
    const [values] = decodeRequests(encodeRequests([sparse]));
    expect(values![REQUEST_COLUMNS.indexOf('tenant')]).toBe('');
    expect(values![REQUEST_COLUMNS.indexOf('user')]).toBeNull();
    expect(values![REQUEST_COLUMNS.indexOf('trace_id')]).toBeNull();
    expect(values!).toHaveLength(REQUEST_COLUMNS.length);
  });

  it('encodes an empty part', () => {
    expect(decodeRequests(encodeRequests([]))).toEqual([]);
  });

  it('builds parts record by record: each part holds its own records, past its first size too', () => {
    const builder = new RequestColumnsBuilder(2);
    const first = Array.from({ length: 5 }, (_, i) => row(i));
    for (const r of first) builder.add(r);
    // Changed after it was added, a record's part keeps what it was.
    const added = first.map(requestValues);
    first[0]!.status = 599;
    const one = builder.take();
    expect(builder.count).toBe(0);
    const second = [row(10), row(11)];
    for (const r of second) builder.add(r);
    const two = builder.take();
    expect(decodeRequests(one)).toEqual(added);
    expect(decodeRequests(two)).toEqual(second.map(requestValues));
    // A part hands over only its records' bytes, and the next one starts with its own strings.
    expect(two.numbers.byteLength).toBe(2 * (one.numbers.byteLength / 5));
    expect(two.strings).not.toContain('id-0');
  });
});
