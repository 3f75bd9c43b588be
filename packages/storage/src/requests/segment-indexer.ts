import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';
import type { Database } from '../database.js';
import type { RequestDetailsOptions } from './request-details.js';
import type { IndexedCount, SegmentStore } from './request-segments.js';
import { SegmentFormatError, decodeSegment } from './request-segments.js';
import { insertRequestValues } from './requests.repository.js';
import type { RowValues } from './request-values.js';

/** Segments indexed in one transaction: about two thousand requests. */
export const SEGMENTS_PER_PASS = 20;

export interface IndexedSegments {
  /** Segments turned into rows (and deleted). */
  segments: number;
  requests: number;
  /** Segments that could not be read or written, deleted with their requests counted here. */
  rejected: { segments: number; requests: number; reasons: string[] };
}

/**
 * The given segments (request-segments.ts) become `requests` rows, logs and rollups, and are deleted, in
 * one transaction: a request is in the rows exactly when its segment is gone, and two indexers (two
 * management servers) never write a segment twice. On PostgreSQL the segments are locked: a second
 * indexer waits, then finds gone what the first deleted.
 */
async function indexSegments(
  db: Kysely<Database>,
  details: RequestDetailsOptions,
  ids: readonly number[],
): Promise<IndexedCount> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('request_segments')
      .select(['id', 'data'])
      .where('id', 'in', ids)
      .orderBy('id');
    if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
    const segments = await query.execute();
    if (segments.length === 0) return { segments: 0, requests: 0 };
    const requests: RowValues[] = [];
    const logs: RowValues[] = [];
    for (const segment of segments) {
      const decoded = decodeSegment(segment.data);
      for (const values of decoded.requests) requests.push(values);
      for (const values of decoded.logs) logs.push(values);
    }
    await insertRequestValues(trx, requests, logs, details);
    await trx
      .deleteFrom('request_segments')
      .where(
        'id',
        'in',
        segments.map((s) => s.id),
      )
      .execute();
    return { segments: segments.length, requests: requests.length };
  });
}

/** The segments of a database through Kysely (PostgreSQL; SQLite where no indexer thread runs). */
export const kyselySegments = (db: Kysely<Database>, details: RequestDetailsOptions = {}): SegmentStore => ({
  next: async (limit) =>
    (
      await db.selectFrom('request_segments').select(['id', 'count']).orderBy('id').limit(limit).execute()
    ).map((s) => ({ id: Number(s.id), count: Number(s.count) })),
  index: (ids) => indexSegments(db, details, ids),
  remove: async (id) => void (await db.deleteFrom('request_segments').where('id', '=', id).execute()),
});

/** Times a segment may fail alone (over several calls) before it is set aside. */
export const SEGMENT_ATTEMPTS = 3;

export interface IndexOptions {
  /** Segments per transaction. */
  limit?: number;
  /**
   * Failures of each segment that failed alone, kept by the caller from one call to the next: a segment
   * is set aside at its SEGMENT_ATTEMPTS-th failure, never for one passing error (a lock, a lost
   * connection).
   */
  failures?: Map<number, number>;
}

/**
 * The request indexer: indexes segments, oldest first, until none is left (those written meanwhile
 * included). A pass that fails is tried again a segment at a time. A segment that is not one (its bytes
 * unreadable) is deleted at once and reported as rejected; a segment that fails alone otherwise stops the
 * call (the caller tries again later), and is deleted and rejected at its SEGMENT_ATTEMPTS-th failure, so
 * that one bad segment never holds back the rest for long.
 */
export async function indexRequestSegments(
  db: Kysely<Database>,
  options: IndexOptions & { details?: RequestDetailsOptions } = {},
): Promise<IndexedSegments> {
  return indexSegmentsOf(kyselySegments(db, options.details), options);
}

/** `indexRequestSegments` on any store of segments (the SQLite indexer thread's own connection). */
export async function indexSegmentsOf(
  store: SegmentStore,
  options: IndexOptions = {},
): Promise<IndexedSegments> {
  const { limit = SEGMENTS_PER_PASS, failures = new Map<number, number>() } = options;
  const result: IndexedSegments = {
    segments: 0,
    requests: 0,
    rejected: { segments: 0, requests: 0, reasons: [] },
  };
  const add = (n: IndexedCount) => {
    result.segments += n.segments;
    result.requests += n.requests;
  };
  for (;;) {
    const next = await store.next(limit);
    if (next.length === 0) return result;
    try {
      add(await store.index(next.map((s) => s.id)));
      continue;
    } catch {
      // Which segment failed is found by trying them one at a time.
    }
    for (const { id, count } of next) {
      try {
        add(await store.index([id]));
        failures.delete(id);
      } catch (error) {
        const attempts = (failures.get(id) ?? 0) + 1;
        if (!(error instanceof SegmentFormatError) && attempts < SEGMENT_ATTEMPTS) {
          failures.set(id, attempts);
          throw error;
        }
        await store.remove(id);
        failures.delete(id);
        result.rejected.segments += 1;
        result.rejected.requests += count;
        result.rejected.reasons.push(error instanceof Error ? error.message : String(error));
      }
    }
  }
}
