import type SQLite from 'better-sqlite3';
import { GeoLocator } from './geo-locator.js';
import type { RequestDetailsOptions } from './request-details.js';
import { ROLLUP_TIERS, RollupAccumulator, rollupUpsertSql } from './rollups.js';
import type { RowValues } from './request-values.js';
import { COLUMN_AT, REQUEST_COLUMNS, REQUEST_LOG_COLUMNS, addDetails } from './request-values.js';
import { decodeSegment } from './request-segments.js';
import type { SegmentStore } from './request-segments.js';
import { dataVersion, openWriterConnection } from './sqlite-segment-writer.js';

const insertSql = (table: string, columns: readonly string[]) =>
  `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;

/**
 * Writes batches of request records into SQLite with prepared statements, one transaction per batch:
 * several times faster than building one multi-row statement per batch, which matters because every
 * request through the gateways becomes a row. The management server's request indexer runs it in a
 * thread of its own (`segments`), and the benchmarks on their own.
 */
export class SqliteRequestWriter {
  private readonly database: SQLite.Database;
  private readonly writeBatch: (requests: RowValues[], logs: RowValues[]) => void;
  private readonly indexBatch: (ids: readonly number[]) => { segments: number; requests: number };
  private readonly nextSegments: SQLite.Statement<[number], { id: number; count: number }>;
  private readonly deleteSegment: SQLite.Statement<[number]>;

  /** `geoipDatabase`: the GeoIP database (MMDB) that places client addresses, if any. */
  constructor(file: string, options: { geoipDatabase?: string | undefined } = {}) {
    const details: RequestDetailsOptions = {
      geo: options.geoipDatabase ? GeoLocator.open(options.geoipDatabase) : undefined,
    };
    this.database = openWriterConnection(file);
    const insertRequest = this.database.prepare(insertSql('requests', REQUEST_COLUMNS));
    const insertLog = this.database.prepare(insertSql('request_logs', REQUEST_LOG_COLUMNS));
    const tiers = ROLLUP_TIERS.map((tier) => ({
      upsert: this.database.prepare(rollupUpsertSql(tier, 'sqlite')),
      rollups: new RollupAccumulator<RowValues>(tier, (column) => {
        const at = COLUMN_AT[column]!;
        return (row) => row[at];
      }),
    }));
    const writeRows = (requests: RowValues[], logs: RowValues[]) => {
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
    };
    // BEGIN IMMEDIATE: the write lock first, so the batch queues for it rather than failing midway.
    this.writeBatch = this.database.transaction(writeRows).immediate;
    this.nextSegments = this.database.prepare('select id, "count" from request_segments order by id limit ?');
    this.deleteSegment = this.database.prepare('delete from request_segments where id = ?');
    const segmentData = this.database.prepare<[number], { data: Buffer }>(
      'select data from request_segments where id = ?',
    );
    this.indexBatch = this.database.transaction((ids: readonly number[]) => {
      const requests: RowValues[] = [];
      const logs: RowValues[] = [];
      let segments = 0;
      for (const id of ids) {
        const segment = segmentData.get(id);
        if (!segment) continue;
        const decoded = decodeSegment(segment.data);
        for (const values of decoded.requests) requests.push(values);
        for (const values of decoded.logs) logs.push(values);
        this.deleteSegment.run(id);
        segments++;
      }
      writeRows(requests, logs);
      return { segments, requests: requests.length };
    }).immediate;
  }

  write(requests: RowValues[], logs: RowValues[]): void {
    this.writeBatch(requests, logs);
  }

  /** The request segments of this database, for the indexer (`indexSegmentsOf`). */
  segments(): SegmentStore {
    return {
      next: async (limit) => this.nextSegments.all(limit),
      index: async (ids) => this.indexBatch(ids),
      remove: async (id) => void this.deleteSegment.run(id),
    };
  }

  dataVersion(): number {
    return dataVersion(this.database);
  }

  close(): void {
    this.database.close();
  }
}
