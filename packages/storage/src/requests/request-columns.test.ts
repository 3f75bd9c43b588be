import { describe, expect, it } from 'vitest';
import { decodeRequests, encodeRequests, requestColumnsTransfer } from './request-columns.js';
import type { NewRequestRow } from './requests.table.js';
import { REQUEST_COLUMNS, requestValues } from './sqlite-request-writer.js';

const row = (i: number): NewRequestRow => ({
  id: `id-${i}`,
  transaction_id: i % 3 ? `tx-${i}` : `id-${i}`,
  timestamp: 1_790_000_000_000 + i,
  gateway: 'gw',
  api_id: i % 2 ? 'api-1' : 'api-2',
  application_id: i % 4 ? 'app' : null,
  plan_id: 'plan',
  subscription_id: i % 4 ? 'sub' : null,
  api_key: i === 5 ? 'key' : null,
  user: null,
  tenant: i === 7 ? '' : null,
  method: i % 5 ? 'GET' : 'POST',
  path: '/items',
  uri: `/items?page=${i}`,
  mapped_path: null,
  host: 'localhost:8082',
  status: i % 10 ? 200 : 502,
  request_content_length: i === 9 ? 0 : 12,
  response_content_length: 2 ** 40 + i,
  response_time: i,
  api_response_time: i % 10 ? i : -1,
  latency: 0,
  endpoint: i % 10 ? 'http://backend/' : null,
  remote_address: '127.0.0.1',
  user_agent: i === 3 ? 'Mozilla/5.0 "quoted" ünïcödé 你好' : null,
  security_type: 'API_KEY',
  error_key: i % 10 ? null : 'GATEWAY_CLIENT_CONNECTION_ERROR',
  message: i % 10 ? null : 'Bad gateway',
  has_log: i === 3 ? 1 : 0,
  trace_id: i % 2 ? '4bf92f3577b34da6a3ce929d0e0e4736' : null,
});

describe('request records encoded by column', () => {
  it('read back as the positional values of every column, after the trip to another thread', () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(i));
    const encoded = encodeRequests(rows);
    // What postMessage does: the arrays move, the rest is cloned.
    const received = structuredClone(encoded, { transfer: requestColumnsTransfer(encoded) });
    expect(encoded.numbers.byteLength).toBe(0);
    expect(decodeRequests(received)).toEqual(rows.map(requestValues));
  });

  it('lists a repeated value once, and every value of the per-record columns', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ ...row(i), api_id: 'api', trace_id: 'same' }));
    const { strings } = encodeRequests(rows);
    expect(strings.filter((s) => s === 'api')).toHaveLength(1);
    expect(strings.filter((s) => s === 'same')).toHaveLength(50);
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
});
