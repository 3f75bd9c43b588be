import SQLite from 'better-sqlite3';
import { SQLITE_WRITE_WAIT_MS } from '../sqlite-dialect.js';
import { clientNames } from './client-names.js';
import { ROLLUP_TIERS, RollupAccumulator, rollupUpsertSql } from './rollups.js';
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

const COLUMN_AT: Record<string, number> = Object.fromEntries(REQUEST_COLUMNS.map((c, i) => [c, i]));

export type RowValues = (string | number | null)[];

const USER_AGENT_AT = COLUMN_AT.user_agent!;
const USER_AGENT_NAME_AT = COLUMN_AT.user_agent_name!;
const OS_NAME_AT = COLUMN_AT.os_name!;

/** The row's values; the client names are worked out later, by the writer (off the gateway's path). */
export function requestValues(row: NewRequestRow): RowValues {
  const values: RowValues = new Array<string | number | null>(REQUEST_COLUMNS.length);
  for (let i = 0; i < REQUEST_COLUMNS.length; i++) values[i] = row[REQUEST_COLUMNS[i]!] ?? null;
  return values;
}

/** Fills the browser and system columns of positional values from their User-Agent. */
function nameClient(values: RowValues): void {
  const names = clientNames(values[USER_AGENT_AT] as string | null);
  values[USER_AGENT_NAME_AT] = names.userAgentName;
  values[OS_NAME_AT] = names.osName;
}

export function requestLogValues(row: NewRequestLogRow): RowValues {
  return REQUEST_LOG_COLUMNS.map((c) => row[c] ?? null);
}

const insertSql = (table: string, columns: readonly string[]) =>
  `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;

/**
 * Writes batches of request records into SQLite with prepared statements, one transaction per batch:
 * several times faster than building one multi-row statement per batch, which matters because every
 * request through the gateway becomes a row. Used by the reporter's writer thread.
 */
export class SqliteRequestWriter {
  private readonly database: SQLite.Database;
  private readonly writeBatch: (requests: RowValues[], logs: RowValues[]) => void;

  constructor(file: string) {
    // Its own thread: waiting for the lock in SQLite's busy handler stalls nothing else.
    this.database = new SQLite(file, { timeout: SQLITE_WRITE_WAIT_MS });
    this.database.pragma('journal_mode = WAL');
    this.database.pragma('synchronous = FULL');
    const insertRequest = this.database.prepare(insertSql('requests', REQUEST_COLUMNS));
    const insertLog = this.database.prepare(insertSql('request_logs', REQUEST_LOG_COLUMNS));
    const tiers = ROLLUP_TIERS.map((tier) => ({
      upsert: this.database.prepare(rollupUpsertSql(tier, 'sqlite')),
      rollups: new RollupAccumulator<RowValues>(tier, (row, column) => row[COLUMN_AT[column]!]),
    }));
    // BEGIN IMMEDIATE: the write lock first, so the batch queues for it rather than failing midway.
    this.writeBatch = this.database.transaction((requests: RowValues[], logs: RowValues[]) => {
      for (const values of requests) {
        nameClient(values);
        insertRequest.run(values);
      }
      for (const values of logs) insertLog.run(values);
      // The batch's rollups in the same transaction: a request is in both or in neither.
      for (const { upsert, rollups } of tiers) {
        for (const values of requests) rollups.add(values);
        for (const values of rollups.take()) upsert.run(values);
      }
    }).immediate;
  }

  write(requests: RowValues[], logs: RowValues[]): void {
    this.writeBatch(requests, logs);
  }

  close(): void {
    this.database.close();
  }
}
