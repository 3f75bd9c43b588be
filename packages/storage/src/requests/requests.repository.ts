import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Executor } from '../database.js';
import type { RequestDetailsOptions } from './request-details.js';
import type { EncodedSegment } from './request-segments.js';
import { ROLLUP_TIERS, RollupAccumulator, rollupColumns, rollupUpsertSql } from './rollups.js';
import type { NewRequestLogRow, NewRequestRow, RequestLogRow, RequestRow } from './requests.table.js';
import { NUMBER_COLUMNS } from './request-columns.js';
import type { RowValues } from './request-values.js';
import {
  COLUMN_AT,
  REQUEST_COLUMNS,
  REQUEST_LOG_COLUMNS,
  addDetails,
  requestLogValues,
  requestValues,
} from './request-values.js';

/**
 * Writes a batch of request records and logs, and adds them to the per-minute rollups: call it in one
 * transaction (the request indexer does), so that a request is in the rollups exactly when its row is.
 */
export async function insertRequestBatch(
  db: Executor,
  requests: readonly NewRequestRow[],
  logs: readonly NewRequestLogRow[],
  details: RequestDetailsOptions = {},
): Promise<void> {
  await insertRequestValues(db, requests.map(requestValues), logs.map(requestLogValues), details);
}

/**
 * `insertRequestBatch` on positional values (REQUEST_COLUMNS and REQUEST_LOG_COLUMNS order), as the
 * request indexer reads them from segments; the details are filled in the given arrays.
 */
export async function insertRequestValues(
  db: Executor,
  requests: readonly RowValues[],
  logs: readonly RowValues[],
  details: RequestDetailsOptions = {},
): Promise<void> {
  for (const values of requests) addDetails(values, details);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await insertByColumn(db, 'requests', REQUEST_COLUMNS, NUMBER_COLUMNS, requests);
    await insertByColumn(db, 'request_logs', REQUEST_LOG_COLUMNS, ['timestamp'], logs);
  } else {
    await insertByRow(db, 'requests', REQUEST_COLUMNS, requests);
    await insertByRow(db, 'request_logs', REQUEST_LOG_COLUMNS, logs);
  }
  await addToRollups(db, requests);
}

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');

/**
 * PostgreSQL: one array per column, `unnest`ed into the table: a statement of as many parameters as
 * columns, whatever the rows. Several times cheaper for the writer than a multi-row insert, whose
 * statement is built and bound value by value (the request indexer writes every request reported).
 */
async function insertByColumn(
  db: Executor,
  table: 'requests' | 'request_logs',
  columns: readonly string[],
  numeric: readonly string[],
  rows: readonly RowValues[],
): Promise<void> {
  if (rows.length === 0) return;
  // Numbers as numeric: rounded by the assignment to an integer column, as a bound number would be.
  const types = columns.map(
    (c) => `$${columns.indexOf(c) + 1}::${numeric.includes(c) ? 'numeric' : 'text'}[]`,
  );
  const arrays = columns.map((_, i) => rows.map((row) => row[i] ?? null));
  const text = `insert into ${table} (${quoted(columns)}) select * from unnest(${types.join(', ')})`;
  await db.executeQuery(CompiledQuery.raw(text, arrays));
}

/** Rows per statement on SQLite: under its parameter limit. */
const ROWS_PER_STATEMENT = 200;

/** SQLite: multi-row inserts (the indexer's thread writes with prepared statements instead). */
async function insertByRow(
  db: Executor,
  table: 'requests' | 'request_logs',
  columns: readonly string[],
  rows: readonly RowValues[],
): Promise<void> {
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const text = `insert into ${table} (${quoted(columns)}) values ${chunk.map(() => row).join(', ')}`;
    await db.executeQuery(CompiledQuery.raw(text, chunk.flat()));
  }
}

/** Rollup rows per statement (48 parameters each: under both dialects' limits). */
const ROLLUPS_PER_STATEMENT = 200;

async function addToRollups(db: Executor, requests: readonly RowValues[]): Promise<void> {
  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  for (const tier of ROLLUP_TIERS) {
    const accumulator = new RollupAccumulator<RowValues>(tier, (column) => {
      const at = COLUMN_AT[column]!;
      return (row) => row[at];
    });
    for (const row of requests) accumulator.add(row);
    const rows = accumulator.take();
    const width = rollupColumns(tier).length;
    for (let i = 0; i < rows.length; i += ROLLUPS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + ROLLUPS_PER_STATEMENT);
      const params = chunk.flat();
      if (params.length !== chunk.length * width) throw new Error('rollup row of the wrong width');
      await db.executeQuery(CompiledQuery.raw(rollupUpsertSql(tier, dialect, chunk.length), params));
    }
  }
}

export async function findRequestById(db: Executor, id: string): Promise<RequestRow | undefined> {
  return db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRequestLogById(db: Executor, id: string): Promise<RequestLogRow | undefined> {
  return db.selectFrom('request_logs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Requests of an API (or all) in a time range, newest first. */
export async function findRequests(
  db: Executor,
  q: { apiId?: string; applicationId?: string; from: number; to: number; offset: number; limit: number },
): Promise<{ rows: RequestRow[]; total: number }> {
  let base = db.selectFrom('requests').where('timestamp', '>=', q.from).where('timestamp', '<=', q.to);
  if (q.apiId) base = base.where('api_id', '=', q.apiId);
  if (q.applicationId) base = base.where('application_id', '=', q.applicationId);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('timestamp', 'desc').orderBy('id').offset(q.offset).limit(q.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Appends report segments (request-segments.ts): the gateway's write on PostgreSQL, one statement a batch. */
export async function insertRequestSegments(
  db: Executor,
  segments: readonly EncodedSegment[],
): Promise<void> {
  if (segments.length === 0) return;
  await db
    .insertInto('request_segments')
    .values(
      segments.map((s) => ({
        count: s.count,
        first_timestamp: s.first_timestamp,
        last_timestamp: s.last_timestamp,
        data: s.data,
      })),
    )
    .execute();
}
