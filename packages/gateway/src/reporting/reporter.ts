import type { NewRequestLogRow, NewRequestRow } from '@portico/storage';
import { RequestColumnsBuilder } from '@portico/storage';
import type { ReportSink } from './report-sink.js';

export interface ReporterOptions {
  /** Records waiting to be written beyond which new ones are dropped (and counted). */
  capacity: number;
  /** Records written in one transaction. */
  batchSize: number;
  /** Longest wait before fewer records than a batch are written, in ms. */
  flushIntervalMs: number;
}

export const DEFAULT_REPORTER_OPTIONS: ReporterOptions = {
  capacity: 50_000,
  batchSize: 1000,
  flushIntervalMs: 1000,
};

/**
 * The batch of the SQLite writer thread: up to a second of a busy gateway's traffic in one transaction.
 * The records wait in the thread's own heap (not the gateway's, so no request pays for their
 * collection), and a transaction adds to each rollup row once for all its requests: on production-like
 * traffic (`npm run bench:report-writer`, 40 APIs, 300 applications, 5,000 requests a second) the
 * writer's CPU per row fell from 59 to 43 us against batches of 1,000. PostgreSQL's batcher runs on the
 * gateway's thread and keeps the smaller batch.
 */
export const SQLITE_BATCH_SIZE = 5000;

/** Records handed to the sink at a time (at most a batch). */
const PART_SIZE = 500;
/** Longest wait before a part of fewer records is handed over, in ms. */
const PART_WAIT_MS = 50;

/**
 * Writes one metrics record per request (and its log when the API's logging says so) off the request
 * path. Each record is encoded into its part's columns as it comes (`RequestColumnsBuilder`), and the
 * part is handed to the sink when full or after PART_WAIT_MS; the sink gathers parts into
 * transactions of a batch. Record objects are never kept: when they waited in the gateway's heap, for
 * a batch or a part, they survived young-generation collections, and every collection copied them,
 * which paused every request in flight (1.4 ms median with batches, 0.7 ms with parts of 100). Encoded
 * as they come, parts can be larger: each part costs the writer thread a message, a segment header and
 * a row, and parts of 500 against 100 brought reporting's own CPU from 6.5-7.2 to 3.2-4.1 us a record
 * (`npm run bench:reporter`, 9,000 records a second).
 *
 * Records handed over and not yet written count against the capacity: beyond it, new records are
 * dropped and counted; the count is part of the gateway's monitoring, never silent.
 */
export class Reporter {
  private readonly part: RequestColumnsBuilder;
  private partLogs: NewRequestLogRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly handedOver = new Set<Promise<void>>();
  private inFlight = 0;
  private closed = false;
  private readonly partSize: number;
  dropped = 0;
  written = 0;
  failedBatches = 0;
  /** Sees every record, written or dropped (the Prometheus metrics). */
  observe: ((record: NewRequestRow) => void) | undefined;

  constructor(
    private readonly sink: ReportSink,
    private readonly options: ReporterOptions = DEFAULT_REPORTER_OPTIONS,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.partSize = Math.min(PART_SIZE, options.batchSize);
    this.part = new RequestColumnsBuilder(this.partSize);
  }

  report(record: NewRequestRow, log?: NewRequestLogRow): void {
    this.observe?.(record);
    if (this.closed || this.part.count + this.inFlight >= this.options.capacity) {
      this.dropped += 1;
      return;
    }
    this.part.add(record);
    if (log) this.partLogs.push(log);
    if (this.part.count >= this.partSize) this.handOver(false);
    else if (!this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = undefined;
          if (this.part.count > 0) this.handOver(false);
        },
        Math.min(PART_WAIT_MS, this.options.flushIntervalMs),
      );
      this.timer.unref();
    }
  }

  /** Records not written yet. */
  get pending(): number {
    return this.part.count + this.inFlight;
  }

  /** Writes everything reported so far. */
  async flush(): Promise<void> {
    this.handOver(true);
    while (this.handedOver.size > 0) await Promise.all([...this.handedOver]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
    await this.sink.close();
  }

  private handOver(flush: boolean): void {
    const count = this.part.count;
    if (count === 0 && !flush) return;
    const requests = this.part.take();
    const logs = this.partLogs;
    this.partLogs = [];
    this.inFlight += count;
    const done: Promise<void> = this.sink.add(requests, logs, flush).then(
      () => {
        this.written += count;
      },
      (error: unknown) => {
        // The database is away or refused the transaction: its records are lost, and counted as dropped.
        this.failedBatches += 1;
        this.dropped += count;
        this.onError(error);
      },
    );
    this.handedOver.add(done);
    void done.finally(() => {
      this.inFlight -= count;
      this.handedOver.delete(done);
    });
  }
}
