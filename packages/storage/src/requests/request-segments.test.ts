import { describe, expect, it } from 'vitest';
import { encodeRequests } from './request-columns.js';
import { SegmentFormatError, decodeSegment, encodeSegment } from './request-segments.js';
import { REQUEST_COLUMNS, REQUEST_LOG_COLUMNS, requestValues } from './request-values.js';
import { testRequest } from './test-requests.js';

const log = (id: string) => [id, 1_790_000_000_003, 'api-1', null, '{"body":"ünïcödé"}', null, '', null];

/** The bytes of a segment written with other columns (another version of Portico). */
function foreignSegment(numbers: string[], strings: string[], rows: (number | string | null)[][]): Buffer {
  const values: (string | null)[] = [null];
  const nums = new Float64Array(rows.length * numbers.length);
  const codes = new Uint32Array(rows.length * strings.length);
  rows.forEach((row, r) => {
    numbers.forEach((_, i) => (nums[r * numbers.length + i] = (row[i] as number | null) ?? NaN));
    strings.forEach((_, i) => {
      const v = row[numbers.length + i] as string | null;
      codes[r * strings.length + i] = v === null ? 0 : values.push(v) - 1;
    });
  });
  const header = Buffer.from(
    JSON.stringify({
      v: 1,
      count: rows.length,
      numbers,
      strings,
      values,
      logColumns: ['id', 'later'],
      logs: [['x', 1]],
    }),
  );
  const start = Math.ceil((4 + header.length) / 8) * 8;
  const data = Buffer.alloc(start + nums.byteLength + codes.byteLength);
  data.writeUInt32LE(header.length, 0);
  header.copy(data, 4);
  data.set(new Uint8Array(nums.buffer), start);
  data.set(new Uint8Array(codes.buffer), start + nums.byteLength);
  return data;
}

describe('request segments', () => {
  it('read back as every column of every record, with the logs and the time range', () => {
    const rows = Array.from({ length: 100 }, (_, i) => testRequest(99 - i));
    const segment = encodeSegment(encodeRequests(rows), [log('id-3')]);
    expect(segment).toMatchObject({
      count: 100,
      first_timestamp: 1_790_000_000_000,
      last_timestamp: 1_790_000_000_099,
    });
    // The driver hands back a copy at any offset of its own memory.
    const stored = Buffer.concat([Buffer.from('xyz'), segment.data]).subarray(3);
    const decoded = decodeSegment(stored);
    expect(decoded.requests).toEqual(rows.map(requestValues));
    expect(decoded.logs).toEqual([log('id-3')]);
  });

  it('encodes an empty part', () => {
    const segment = encodeSegment(encodeRequests([]), []);
    expect(segment.count).toBe(0);
    expect(decodeSegment(segment.data)).toEqual({ requests: [], logs: [] });
  });

  it("maps another version's columns by name: unknown ones skipped, missing ones null", () => {
    const data = foreignSegment(
      ['timestamp', 'future_number', 'status'],
      ['id', 'future_text', 'api_id'],
      [
        [1_790_000_000_000, 7, 200, 'r1', 'later', 'api-1'],
        [1_790_000_000_001, null, 404, 'r2', null, null],
      ],
    );
    const { requests, logs } = decodeSegment(data);
    const at = (c: (typeof REQUEST_COLUMNS)[number]) => REQUEST_COLUMNS.indexOf(c);
    expect(requests).toHaveLength(2);
    expect(requests[0]![at('id')]).toBe('r1');
    expect(requests[0]![at('status')]).toBe(200);
    expect(requests[0]![at('api_id')]).toBe('api-1');
    expect(requests[0]![at('method')]).toBeNull();
    expect(requests[1]![at('timestamp')]).toBe(1_790_000_000_001);
    expect(requests[1]![at('api_id')]).toBeNull();
    expect(requests.every((r) => r.length === REQUEST_COLUMNS.length)).toBe(true);
    expect(logs).toEqual([['x', ...REQUEST_LOG_COLUMNS.slice(1).map(() => null)]]);
  });

  it('refuses bytes that are not a segment', () => {
    const good = encodeSegment(encodeRequests([testRequest(1)]), []).data;
    const bad = [
      Buffer.from([1, 2]),
      Buffer.concat([Buffer.from([5, 0, 0, 0]), Buffer.from('{nope')]),
      Buffer.concat([Buffer.from([8, 0, 0, 0]), Buffer.from('{"v":99}')]),
      good.subarray(0, good.length - 4),
    ];
    for (const bytes of bad) expect(() => decodeSegment(bytes)).toThrow(SegmentFormatError);
  });
});
