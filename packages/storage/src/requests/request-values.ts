import type { RequestDetailsOptions } from './request-details.js';
import { requestDetails } from './request-details.js';
import type { NewRequestLogRow, NewRequestRow, RequestLogTable, RequestTable } from './requests.table.js';

/**
 * The gateway's request records as positional values: the column order of the prepared inserts.
 * Records travel to the SQLite writer thread in this form (cheaper to copy than objects), and
 * positional parameters are the fastest way into better-sqlite3.
 */
export const REQUEST_COLUMNS = [
  'id',
  'transaction_id',
  'timestamp',
  'gateway',
  'api_id',
  'application_id',
  'plan_id',
  'subscription_id',
  'api_key',
  'user',
  'tenant',
  'method',
  'path',
  'uri',
  'mapped_path',
  'host',
  'status',
  'request_content_length',
  'response_content_length',
  'response_time',
  'api_response_time',
  'latency',
  'endpoint',
  'remote_address',
  'user_agent',
  'security_type',
  'error_key',
  'message',
  'has_log',
  'trace_id',
  'user_agent_name',
  'os_name',
  'geo_country',
  'geo_city',
] as const satisfies readonly (keyof RequestTable)[];

export const REQUEST_LOG_COLUMNS = [
  'id',
  'timestamp',
  'api_id',
  'application_id',
  'client_request',
  'proxy_request',
  'client_response',
  'proxy_response',
] as const satisfies readonly (keyof RequestLogTable)[];

// Every column is listed: adding one to the tables without adding it here fails to compile.
type Unlisted = Exclude<keyof RequestTable, (typeof REQUEST_COLUMNS)[number]>;
type UnlistedLog = Exclude<keyof RequestLogTable, (typeof REQUEST_LOG_COLUMNS)[number]>;
const allListed: [Unlisted | UnlistedLog] extends [never] ? true : never = true;
void allListed;

export type RowValues = (string | number | null)[];

export const COLUMN_AT: Record<string, number> = Object.fromEntries(REQUEST_COLUMNS.map((c, i) => [c, i]));

/** The row's values; its details are worked out later, by the writer (off the gateway's path). */
export function requestValues(row: NewRequestRow): RowValues {
  const values: RowValues = new Array<string | number | null>(REQUEST_COLUMNS.length);
  for (let i = 0; i < REQUEST_COLUMNS.length; i++) values[i] = row[REQUEST_COLUMNS[i]!] ?? null;
  return values;
}

/** The log's values in REQUEST_LOG_COLUMNS order. */
export function requestLogValues(row: NewRequestLogRow): RowValues {
  return REQUEST_LOG_COLUMNS.map((c) => row[c] ?? null);
}

const USER_AGENT_AT = COLUMN_AT.user_agent!;
const REMOTE_ADDRESS_AT = COLUMN_AT.remote_address!;
const DETAIL_COLUMNS = ['user_agent_name', 'os_name', 'geo_country', 'geo_city'] as const;
const DETAIL_AT = DETAIL_COLUMNS.map((c) => COLUMN_AT[c]!);

/** Fills the detail columns of positional values (request-details.ts) that the record left empty. */
export function addDetails(values: RowValues, options: RequestDetailsOptions): void {
  const details = requestDetails(
    values[USER_AGENT_AT] as string | null,
    values[REMOTE_ADDRESS_AT] as string | null,
    options,
  );
  for (let i = 0; i < DETAIL_COLUMNS.length; i++) values[DETAIL_AT[i]!] ??= details[DETAIL_COLUMNS[i]!];
}
