/** How records are grouped into transactions. */
export interface BatchOptions {
  /** Records beyond which the gathered records are written at once. */
  batchSize: number;
  /** Longest wait before fewer records are written, in ms. */
  flushIntervalMs: number;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Gathers parts of request records into batches written one transaction at a time: a batch is written
 * when `batchSize` records are there, after `flushIntervalMs` otherwise, or at once when a part asks
 * for it. Each part's promise settles with the transaction that wrote it. The reporter's writer thread
 * runs one for SQLite; the gateway's thread runs one for PostgreSQL.
 */
export class Batcher<R, L> {
  private requests: R[] = [];
  private logs: L[] = [];
  /** Records gathered: what `batchSize` counts. */
  private records = 0;
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing = false;
  private flushRequested = false;

  constructor(
    private readonly write: (requests: R[], logs: L[]) => void | Promise<void>,
    private readonly options: BatchOptions,
    /** Records in one item (a segment holds a part's records); 1 by default. */
    private readonly recordsIn: (item: R) => number = () => 1,
  ) {}

  add(requests: R[], logs: L[], flush: boolean): Promise<void> {
    for (const r of requests) {
      this.requests.push(r);
      this.records += this.recordsIn(r);
    }
    for (const l of logs) this.logs.push(l);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (flush) this.flushRequested = true;
    if (this.flushRequested || this.records >= this.options.batchSize) void this.drain();
    else if (!this.timer) this.armTimer();
    return done;
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      while (this.waiters.length > 0 && (this.flushRequested || this.records >= this.options.batchSize)) {
        this.flushRequested = false;
        const { requests, logs, waiters } = this;
        this.requests = [];
        this.records = 0;
        this.logs = [];
        this.waiters = [];
        try {
          if (requests.length > 0 || logs.length > 0) await this.write(requests, logs);
          for (const w of waiters) w.resolve();
        } catch (error) {
          for (const w of waiters) w.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
    // What arrived during the last write and is not a whole batch waits for the interval.
    if (this.waiters.length > 0 && !this.timer) this.armTimer();
  }

  private armTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushRequested = true;
      void this.drain();
    }, this.options.flushIntervalMs);
    this.timer.unref?.();
  }
}
