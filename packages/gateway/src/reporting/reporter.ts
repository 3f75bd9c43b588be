import type { NewRequestLogRow, NewRequestRow } from '@portico/storage';
import type { BatchWriter } from './batch-writer.js';

export interface ReporterOptions {
  /** Records waiting to be written beyond which new ones are dropped (and counted). */
  capacity: number;
  /** Largest batch written in one transaction. */
  batchSize: number;
  /** Longest wait before a partial batch is written, in ms. */
  flushIntervalMs: number;
}

export const DEFAULT_REPORTER_OPTIONS: ReporterOptions = {
  capacity: 50_000,
  batchSize: 1000,
  flushIntervalMs: 1000,
};

/**
 * Writes one metrics record per request (and its log when the API's logging says so) off the request
 * path: records go to a bounded in-memory queue, written in batches. A full queue drops the record and
 * counts it; the count is part of the gateway's monitoring, never silent.
 */
export class Reporter {
  private queue: NewRequestRow[] = [];
  private logs: NewRequestLogRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private closed = false;
  dropped = 0;
  written = 0;
  failedBatches = 0;

  constructor(
    private readonly writer: BatchWriter,
    private readonly options: ReporterOptions = DEFAULT_REPORTER_OPTIONS,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  report(record: NewRequestRow, log?: NewRequestLogRow): void {
    if (this.closed || this.queue.length >= this.options.capacity) {
      this.dropped += 1;
      return;
    }
    this.queue.push(record);
    if (log) this.logs.push(log);
    if (this.queue.length >= this.options.batchSize) this.flushSoon(0);
    else this.flushSoon(this.options.flushIntervalMs);
  }

  get pending(): number {
    return this.queue.length;
  }

  private flushSoon(delay: number): void {
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delay);
    this.timer.unref();
  }

  /** Writes everything queued (one batch after another). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.batchSize);
      const ids = new Set(batch.map((r) => r.id));
      const logs = this.logs.filter((l) => ids.has(l.id));
      this.logs = this.logs.filter((l) => !ids.has(l.id));
      this.writing = this.writer.write(batch, logs).then(
        () => {
          this.written += batch.length;
        },
        (error: unknown) => {
          // The database is away: the batch is lost, and counted as dropped.
          this.failedBatches += 1;
          this.dropped += batch.length;
          this.onError(error);
        },
      );
      await this.writing;
      this.writing = undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
    await this.writer.close();
  }
}
