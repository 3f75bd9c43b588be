import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Executor } from '../database.js';
import type { RequestDetailsOptions } from './request-details.js';
import type { EncodedSegment } from './request-segments.js';
import { withDetails } from './request-details.js';
import { ROLLUP_TIERS, RollupAccumulator, rollupColumns, rollupUpsertSql } from './rollups.js';
import type { NewRequestLogRow, NewRequestRow, RequestLogRow, RequestRow } from './requests.table.js';

/**
 * Writes a batch of request records and logs, and adds them to the per-minute rollups: call it in one
 * transaction (the gateway reporter does), so that a request is in the rollups exactly when its row is.
 */
export async function insertRequestBatch(
  db: Executor,
  requests: readonly NewRequestRow[],
  logs: readonly NewRequestLogRow[],
  details: RequestDetailsOptions = {},
): Promise<void> {
  // Chunks keep each statement under the SQL parameter limits of both dialects.
  for (let i = 0; i < requests.length; i += 200) {
    await db
      .insertInto('requests')
      .values(requests.slice(i, i + 200).map((row) => withDetails(row, details)))
      .execute();
  }
  for (let i = 0; i < logs.length; i += 200) {
    await db
      .insertInto('request_logs')
      .values(logs.slice(i, i + 200))
      .execute();
  }
  await addToRollups(db, requests);
}

/** Rollup rows per statement (48 parameters each: under both dialects' limits). */
const ROLLUPS_PER_STATEMENT = 200;

async function addToRollups(db: Executor, requests: readonly NewRequestRow[]): Promise<void> {
  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  for (const tier of ROLLUP_TIERS) {
    const accumulator = new RollupAccumulator<NewRequestRow>(
      tier,
      (column) => (row) => row[column as keyof NewRequestRow] as string | number | null | undefined,
    );
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
