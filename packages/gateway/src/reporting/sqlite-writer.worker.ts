import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { EncodedSegment } from '@portico/storage';
import { SqliteSegmentWriter, encodeSegment } from '@portico/storage';
import { Batcher } from './batcher.js';
import type { ForeignCommit, WriterAnswer, WriterData, WriterMessage } from './report-sink.js';
import { DATA_VERSION_POLL_MS } from '../sync/change-watch.js';

/**
 * The reporter's SQLite writer thread: its own connection; each part that arrives becomes a segment
 * (request-segments.ts), the segments are gathered into transactions of a batch each, and every part
 * is answered when its transaction is written.
 */
const { sqlitePath, options } = workerData as WriterData;

/**
 * The thread's name as the system shows it (`top -H`, `/proc/<pid>/task/*\/comm`): its CPU time is then
 * told apart from the main thread's and V8's helper threads' (all named `node`), as `npm run
 * bench:gateway` prints it. Only Linux has the file; elsewhere the thread keeps its name.
 */
const WRITER_THREAD_NAME = 'report-writer';
try {
  writeFileSync('/proc/thread-self/comm', WRITER_THREAD_NAME);
} catch {
  // not Linux
}

const writer = new SqliteSegmentWriter(sqlitePath);
const batcher = new Batcher<EncodedSegment, never>(
  (segments) => writer.write(segments),
  options,
  (segment) => segment.count,
);

// Commits by other connections (the management server, other gateways, this gateway's own thread) are
// told to the gateway, which syncs; this thread's own batches change nothing a gateway serves, and
// seen from the gateway's connection they would wake its sync after every batch.
let version = writer.dataVersion();
setInterval(() => {
  const now = writer.dataVersion();
  if (now === version) return;
  version = now;
  parentPort!.postMessage({ foreignCommit: true } satisfies ForeignCommit);
}, DATA_VERSION_POLL_MS).unref();

parentPort!.on('message', (message: WriterMessage) => {
  batcher.add([encodeSegment(message.requests, message.logs)], [], message.flush).then(
    () => parentPort!.postMessage({ id: message.id } satisfies WriterAnswer),
    (error: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies WriterAnswer),
  );
});
