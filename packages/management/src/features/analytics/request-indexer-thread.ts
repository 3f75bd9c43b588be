import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Database, IndexedSegments, Storage } from '@portico/storage';
import { GeoLocator, indexRequestSegments } from '@portico/storage';
import type { Kysely } from 'kysely';

export interface IndexerData {
  sqlitePath: string;
  geoipDatabase: string | undefined;
}
export interface IndexerRequest {
  id: number;
}
export interface IndexerAnswer {
  id: number;
  result?: IndexedSegments;
  error?: string;
}

/** One pass of the indexer: every segment there is, into rows. */
export interface IndexPasses {
  pass(): Promise<IndexedSegments>;
  close(): Promise<void>;
}

const WORKER = new URL('./request-indexer.worker.js', import.meta.url);

/**
 * The passes in a thread of their own (request-indexer.worker.ts), on SQLite. A thread that ended
 * (it failed) is started again at the next pass, until the indexer is closed.
 */
class IndexerThread implements IndexPasses {
  private worker: Worker | undefined;
  private closed = false;
  private next = 0;
  private readonly pending = new Map<number, { resolve(r: IndexedSegments): void; reject(e: Error): void }>();

  constructor(private readonly data: IndexerData) {}

  pass(): Promise<IndexedSegments> {
    // A read that comes while the server stops finds the rows there are; no thread starts again.
    if (this.closed) return Promise.reject(new Error('the request indexer is closed'));
    const worker = (this.worker ??= this.start());
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id } satisfies IndexerRequest);
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER, { workerData: this.data });
    worker.on('message', (m: IndexerAnswer) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.result) p?.resolve(m.result);
      else p?.reject(new Error(m.error ?? 'the request indexer failed'));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the request indexer thread ended (exit code ${code})`)));
    worker.unref();
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
  }
}

/**
 * The indexer's passes for this storage: a thread of its own on SQLite (when the compiled worker is
 * there, as it is outside the unit tests), else through Kysely on the server's own connections.
 */
export function indexPassesFor(
  storage: Storage,
  db: Kysely<Database>,
  geoipDatabase: string | undefined,
): IndexPasses {
  // Opened here first, so that a wrong file stops the start with its reason.
  const details = { geo: geoipDatabase ? GeoLocator.open(geoipDatabase) : undefined };
  if (storage.dialect === 'sqlite' && storage.sqlitePath && existsSync(fileURLToPath(WORKER)))
    return new IndexerThread({ sqlitePath: storage.sqlitePath, geoipDatabase });
  const failures = new Map<number, number>();
  return {
    pass: () => indexRequestSegments(db, { details, failures }),
    close: async () => {},
  };
}
