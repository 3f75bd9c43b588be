import SQLite from 'better-sqlite3';
import { SQLITE_WRITE_WAIT_MS } from '../sqlite-dialect.js';
import { GeoLocator } from './geo-locator.js';
import type { RequestDetailsOptions } from './request-details.js';
import { requestDetails } from './request-details.js';
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

const COLUMN_AT: Record<string, number> = Object.fromEntries(REQUEST_COLUMNS.map((c, i) => [c, i]));

export type RowValues = (string | number | null)[];

const USER_AGENT_AT = COLUMN_AT.user_agent!;
const REMOTE_ADDRESS_AT = COLUMN_AT.remote_address!;
const DETAIL_COLUMNS = ['user_agent_name', 'os_name', 'geo_country', 'geo_city'] as const;
const DETAIL_AT = DETAIL_COLUMNS.map((c) => COLUMN_AT[c]!);

/** The row's values; its details are worked out later, by the writer (off the gateway's path). */
export function requestValues(row: NewRequestRow): RowValues {
  const values: RowValues = new Array<string | number | null>(REQUEST_COLUMNS.length);
  for (let i = 0; i < REQUEST_COLUMNS.length; i++) values[i] = row[REQUEST_COLUMNS[i]!] ?? null;
  return values;
}

/** Fills the detail columns of positional values (request-details.ts). */
function addDetails(values: RowValues, options: RequestDetailsOptions): void {
  const details = requestDetails(
    values[USER_AGENT_AT] as string | null,
    values[REMOTE_ADDRESS_AT] as string | null,
    options,
  );
  for (let i = 0; i < DETAIL_COLUMNS.length; i++) values[DETAIL_AT[i]!] = details[DETAIL_COLUMNS[i]!];
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

  /** `geoipDatabase`: the GeoIP database (MMDB) that places client addresses, if any. */
  constructor(file: string, options: { geoipDatabase?: string | undefined } = {}) {
    const details: RequestDetailsOptions = {
      geo: options.geoipDatabase ? GeoLocator.open(options.geoipDatabase) : undefined,
    };
    // Its own thread: waiting for the lock in SQLite's busy handler stalls nothing else.
    this.database = new SQLite(file, { timeout: SQLITE_WRITE_WAIT_MS });
    this.database.pragma('journal_mode = WAL');
    this.database.pragma('synchronous = FULL');
    const insertRequest = this.database.prepare(insertSql('requests', REQUEST_COLUMNS));
    const insertLog = this.database.prepare(insertSql('request_logs', REQUEST_LOG_COLUMNS));
    const tiers = ROLLUP_TIERS.map((tier) => ({
      upsert: this.database.prepare(rollupUpsertSql(tier, 'sqlite')),
      rollups: new RollupAccumulator<RowValues>(tier, (column) => {
        const at = COLUMN_AT[column]!;
        return (row) => row[at];
      }),
    }));
    // BEGIN IMMEDIATE: the write lock first, so the batch queues for it rather than failing midway.
    this.writeBatch = this.database.transaction((requests: RowValues[], logs: RowValues[]) => {
      for (const values of requests) {
        addDetails(values, details);
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

  /**
   * SQLite's `data_version` of this connection: it changes when another connection commits to the file,
   * never for this writer's own batches (the management server's changes, not the reports, wake a
   * gateway's sync).
   */
  dataVersion(): number {
    return Number(this.database.pragma('data_version', { simple: true }));
  }

  close(): void {
    this.database.close();
  }
}
