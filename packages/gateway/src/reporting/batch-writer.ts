import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, NewRequestLogRow, NewRequestRow, Storage } from '@portico/storage';
import { insertRequestBatch, requestLogValues, requestValues } from '@portico/storage';
import type { Kysely } from 'kysely';

/** Writes one batch of request records and logs. */
export interface BatchWriter {
  write(requests: NewRequestRow[], logs: NewRequestLogRow[]): Promise<void>;
  close(): Promise<void>;
}

/** In the gateway's thread: right for PostgreSQL, whose driver never blocks the event loop. */
export class DirectBatchWriter implements BatchWriter {
  constructor(private readonly db: Kysely<Database>) {}

  write(requests: NewRequestRow[], logs: NewRequestLogRow[]): Promise<void> {
    return this.db.transaction().execute((trx) => insertRequestBatch(trx, requests, logs));
  }

  async close(): Promise<void> {}
}

/**
 * In a worker thread with its own SQLite connection: better-sqlite3 writes synchronously, and a batch
 * written on the gateway's thread would stall every request in flight for its duration.
 */
export class WorkerBatchWriter implements BatchWriter {
  private readonly worker: Worker;
  private next = 0;
  private readonly pending = new Map<number, { resolve(): void; reject(e: Error): void }>();

  constructor(sqlitePath: string) {
    this.worker = new Worker(new URL('./sqlite-writer.worker.js', import.meta.url), {
      workerData: { sqlitePath },
    });
    this.worker.on('message', (m: { id: number; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) p?.reject(new Error(m.error));
      else p?.resolve();
    });
    this.worker.on('error', (error) => {
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    });
    this.worker.unref();
  }

  write(requests: NewRequestRow[], logs: NewRequestLogRow[]): Promise<void> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Positional values: cheaper to copy to the thread than objects, and what its statements take.
      this.worker.postMessage({
        id,
        requests: requests.map(requestValues),
        logs: logs.map(requestLogValues),
      });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** The writer for this storage: a worker for SQLite when the compiled worker exists, else direct. */
export function batchWriterFor(storage: Storage): BatchWriter {
  if (storage.dialect === 'sqlite' && storage.sqlitePath) {
    const script = fileURLToPath(new URL('./sqlite-writer.worker.js', import.meta.url));
    if (existsSync(script)) return new WorkerBatchWriter(storage.sqlitePath);
  }
  return new DirectBatchWriter(storage.db);
}
