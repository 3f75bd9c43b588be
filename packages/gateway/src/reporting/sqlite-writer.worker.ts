import { parentPort, workerData } from 'node:worker_threads';
import type { RowValues } from '@portico/storage';
import { SqliteRequestWriter } from '@portico/storage';

/** The reporter's SQLite writer thread: its own connection, one transaction per batch. */
const { sqlitePath } = workerData as { sqlitePath: string };
const writer = new SqliteRequestWriter(sqlitePath);

parentPort!.on('message', (message: { id: number; requests: RowValues[]; logs: RowValues[] }) => {
  try {
    writer.write(message.requests, message.logs);
    parentPort!.postMessage({ id: message.id });
  } catch (error) {
    parentPort!.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
