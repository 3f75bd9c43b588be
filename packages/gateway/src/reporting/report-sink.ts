import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  Database,
  EncodedSegment,
  NewRequestLogRow,
  RequestColumns,
  RowValues,
  Storage,
} from '@portico/storage';
import {
  encodeSegment,
  insertRequestSegments,
  requestColumnsTransfer,
  requestLogValues,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { BatchOptions } from './batcher.js';
import { Batcher } from './batcher.js';

/**
 * Where the reporter hands its records, a part at a time, without waiting for earlier parts: the sink
 * gathers them into transactions. A part's promise settles when the transaction holding it is written
 * (or refused); `flush` asks for everything gathered to be written now.
 */
export interface ReportSink {
  add(requests: RequestColumns, logs: NewRequestLogRow[], flush: boolean): Promise<void>;
  close(): Promise<void>;
  /** SQLite writer thread only: tells when other connections commit (see `WorkerReportSink`). */
  readonly commits?: CommitSignal;
}

/**
 * Commits to the SQLite file by connections other than the report writer's: `onCommit` for each change
 * seen, `onLost` once when the signal ends (the writer's thread ended), after which nothing is told.
 */
export interface CommitSignal {
  watch(onCommit: () => void, onLost: () => void): void;
}

/**
 * In the gateway's thread: right for PostgreSQL, whose driver never blocks the event loop. Each part
 * becomes a segment (request-segments.ts), a batch of them one statement.
 */
export class DirectReportSink implements ReportSink {
  private readonly batcher: Batcher<EncodedSegment, never>;

  constructor(db: Kysely<Database>, options: BatchOptions) {
    this.batcher = new Batcher(
      (segments) => insertRequestSegments(db, segments),
      options,
      (segment) => segment.count,
    );
  }

  add(requests: RequestColumns, logs: NewRequestLogRow[], flush: boolean): Promise<void> {
    const segment = encodeSegment(requests, logs.map(requestLogValues));
    return this.batcher.add([segment], [], flush);
  }

  async close(): Promise<void> {}
}

/** What the writer thread starts with. */
export interface WriterData {
  sqlitePath: string;
  options: BatchOptions;
}

/** A part of records on its way to the writer thread: the requests by column, the logs as positional values. */
export interface WriterMessage {
  id: number;
  requests: RequestColumns;
  logs: RowValues[];
  flush: boolean;
}

/** The writer thread's answer: the part is written, or its transaction was refused. */
export interface WriterAnswer {
  id: number;
  error?: string;
}

/** The writer thread's notice that another connection committed to the database. */
export interface ForeignCommit {
  foreignCommit: true;
}

/**
 * In a worker thread with its own SQLite connection, which gathers the parts into transactions:
 * better-sqlite3 writes synchronously, and a batch written on the gateway's thread would stall every
 * request in flight for its duration. Parts go over encoded by column (`RequestColumns`), whose arrays
 * move without a copy; the thread reads them back as the positional values its statements take.
 */
export class WorkerReportSink implements ReportSink {
  private readonly worker: Worker;
  private next = 0;
  private readonly pending = new Map<number, { resolve(): void; reject(e: Error): void }>();
  /** Set when the thread has failed or ended: later parts are refused at once, never left waiting. */
  private failure: Error | undefined;
  private watcher: { onCommit(): void; onLost(): void } | undefined;
  /**
   * The thread's own connection sees every commit but its own: the gateway's sync wakes for changes
   * of the management server or other gateways, not after each batch of reports.
   */
  readonly commits: CommitSignal = {
    watch: (onCommit, onLost) => {
      if (this.failure) onLost();
      else this.watcher = { onCommit, onLost };
    },
  };

  constructor(sqlitePath: string, options: BatchOptions) {
    this.worker = new Worker(new URL('./sqlite-writer.worker.js', import.meta.url), {
      workerData: { sqlitePath, options } satisfies WriterData,
    });
    this.worker.on('message', (m: WriterAnswer | ForeignCommit) => {
      if ('foreignCommit' in m) return this.watcher?.onCommit();
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) p?.reject(new Error(m.error));
      else p?.resolve();
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      const watcher = this.watcher;
      this.watcher = undefined;
      watcher?.onLost();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the report writer thread ended (exit code ${code})`)));
    this.worker.unref();
  }

  add(requests: RequestColumns, logs: NewRequestLogRow[], flush: boolean): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const message: WriterMessage = {
        id,
        requests,
        logs: logs.map(requestLogValues),
        flush,
      };
      this.worker.postMessage(message, requestColumnsTransfer(message.requests));
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * The sink for this storage: a writer thread for SQLite when the compiled worker exists, else direct.
 */
export function reportSinkFor(storage: Storage, options: BatchOptions): ReportSink {
  if (storage.dialect === 'sqlite' && storage.sqlitePath) {
    const script = fileURLToPath(new URL('./sqlite-writer.worker.js', import.meta.url));
    // The thread opens its own copy of the database: this one is left to the garbage collector.
    if (existsSync(script)) return new WorkerReportSink(storage.sqlitePath, options);
  }
  return new DirectReportSink(storage.db, options);
}
