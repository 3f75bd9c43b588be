import SQLite from 'better-sqlite3';
import { SQLITE_WRITE_WAIT_MS } from '../sqlite-dialect.js';
import type { EncodedSegment } from './request-segments.js';

/** A writer's own connection to the SQLite file: WAL, and every commit on disk before it is answered. */
export function openWriterConnection(file: string): SQLite.Database {
  // Its own thread: waiting for the lock in SQLite's busy handler stalls nothing else.
  const database = new SQLite(file, { timeout: SQLITE_WRITE_WAIT_MS });
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  return database;
}

/**
 * SQLite's `data_version` of a connection: it changes when another connection commits to the file,
 * never for the connection's own writes (the management server's changes, not the reports, wake a
 * gateway's sync).
 */
export const dataVersion = (database: SQLite.Database): number =>
  Number(database.pragma('data_version', { simple: true }));

/**
 * The gateway's report writer on SQLite (its writer thread): appends segments, a row each, one
 * transaction per batch. A row of a part (up to 500 requests) costs about what one request row did.
 */
export class SqliteSegmentWriter {
  private readonly database: SQLite.Database;
  private readonly writeBatch: (segments: readonly EncodedSegment[]) => void;

  constructor(file: string) {
    this.database = openWriterConnection(file);
    const insert = this.database.prepare(
      'insert into request_segments ("count", first_timestamp, last_timestamp, data) values (?, ?, ?, ?)',
    );
    // BEGIN IMMEDIATE: the write lock first, so the batch queues for it rather than failing midway.
    this.writeBatch = this.database.transaction((segments: readonly EncodedSegment[]) => {
      for (const s of segments) insert.run(s.count, s.first_timestamp, s.last_timestamp, s.data);
    }).immediate;
  }

  write(segments: readonly EncodedSegment[]): void {
    this.writeBatch(segments);
  }

  dataVersion(): number {
    return dataVersion(this.database);
  }

  close(): void {
    this.database.close();
  }
}
