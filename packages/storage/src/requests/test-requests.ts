import type { NewRequestRow } from './requests.table.js';

/**
 * The i-th of a varied series of gateway records for the tests of the report formats: repeated and
 * per-record values, nulls and empty strings, numbers above 2^32, non-ASCII text.
 */
export const testRequest = (i: number): NewRequestRow => ({
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
