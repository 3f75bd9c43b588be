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
 *
 * Under load only full batches are written, one at a time; a partial batch waits for the flush interval.
 * (Writing whatever had arrived during the previous write made batches of a few dozen records, and the
 * commit of each cost SQLite an fsync and the WAL pages of every index touched.)
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
    if (this.queue.length >= this.options.batchSize) {
      if (!this.writing) void this.startWriting(0);
    } else if (!this.timer) this.armTimer();
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Writes everything queued when called (one batch after another); what arrives meanwhile waits its turn. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    const queued = this.queue.length;
    if (queued > 0) await this.startWriting(Math.ceil(queued / this.options.batchSize));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
    await this.writer.close();
  }

  /**
   * Writes up to `batches` batches, each full unless it is the last record queued, then goes on while
   * full batches wait; a partial one is left to the timer.
   */
  private startWriting(batches: number): Promise<void> {
    const run = async () => {
      for (let i = 0; i < batches && this.queue.length > 0; i++) await this.writeOne();
      while (this.queue.length >= this.options.batchSize) await this.writeOne();
    };
    this.writing = run().finally(() => {
      this.writing = undefined;
      if (this.queue.length > 0 && !this.timer && !this.closed) this.armTimer();
    });
    return this.writing;
  }

  private armTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.flushIntervalMs);
    this.timer.unref();
  }

  private async writeOne(): Promise<void> {
    const batch = this.queue.splice(0, this.options.batchSize);
    let logs: NewRequestLogRow[] = [];
    if (this.logs.length > 0) {
      const ids = new Set(batch.map((r) => r.id));
      logs = this.logs.filter((l) => ids.has(l.id));
      this.logs = this.logs.filter((l) => !ids.has(l.id));
    }
    try {
      await this.writer.write(batch, logs);
      this.written += batch.length;
    } catch (error) {
      // The database is away: the batch is lost, and counted as dropped.
      this.failedBatches += 1;
      this.dropped += batch.length;
      this.onError(error);
    }
  }
}
