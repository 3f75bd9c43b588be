import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteRequestWriter, indexSegmentsOf } from '@portico/storage';
import type { IndexerAnswer, IndexerData, IndexerRequest } from './request-indexer-thread.js';

/**
 * The request indexer's thread on SQLite: its own connection writes the rows from the segments with
 * prepared statements (several times cheaper than statements built per batch), and its waits for the
 * write lock stall nothing of the management server's event loop. One pass at a time: the
 * `RequestIndexer` asks for the next only once the last is answered.
 */
const { sqlitePath, geoipDatabase } = workerData as IndexerData;

// Named, as the gateway's report writer is, so that its CPU time shows apart (`top -H`).
try {
  writeFileSync('/proc/thread-self/comm', 'request-indexer');
} catch {
  // not Linux
}

const writer = new SqliteRequestWriter(sqlitePath, { geoipDatabase });
const failures = new Map<number, number>();

parentPort!.on('message', (request: IndexerRequest) => {
  indexSegmentsOf(writer.segments(), { failures }).then(
    (result) => parentPort!.postMessage({ id: request.id, result } satisfies IndexerAnswer),
    (error: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies IndexerAnswer),
  );
});
