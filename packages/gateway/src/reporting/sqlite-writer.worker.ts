import { parentPort, workerData } from 'node:worker_threads';
import type { RowValues } from '@portico/storage';
import { SqliteRequestWriter } from '@portico/storage';
import { Batcher } from './batcher.js';
import type { WriterAnswer, WriterData, WriterMessage } from './report-sink.js';

/**
 * The reporter's SQLite writer thread: its own connection; the parts that arrive are gathered into
 * transactions of a batch each, and every part is answered when its transaction is written.
 */
const { sqlitePath, options, geoipDatabase } = workerData as WriterData;
const writer = new SqliteRequestWriter(sqlitePath, { geoipDatabase });
const batcher = new Batcher<RowValues, RowValues>((requests, logs) => writer.write(requests, logs), options);

parentPort!.on('message', (message: WriterMessage) => {
  batcher.add(message.requests, message.logs, message.flush).then(
    () => parentPort!.postMessage({ id: message.id } satisfies WriterAnswer),
    (error: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies WriterAnswer),
  );
});
