import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { NewRequestLogRow, NewRequestRow } from '@portico/storage';
import { connect, insertRequestBatch } from '@portico/storage';

/** The reporter's SQLite writer thread: one connection, one transaction per batch. */
const { sqlitePath } = workerData as { sqlitePath: string };
const storage = connect({ dataDir: path.dirname(sqlitePath), sqliteFile: path.basename(sqlitePath) });

parentPort!.on('message', (message: { id: number; requests: NewRequestRow[]; logs: NewRequestLogRow[] }) => {
  storage.db
    .transaction()
    .execute((trx) => insertRequestBatch(trx, message.requests, message.logs))
    .then(
      () => parentPort!.postMessage({ id: message.id }),
      (error: unknown) =>
        parentPort!.postMessage({
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
});
