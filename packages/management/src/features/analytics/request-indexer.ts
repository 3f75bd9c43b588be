import type { IndexedSegments } from '@portico/storage';
import type { ScheduledJob } from '../scheduler/scheduler.js';
import type { IndexPasses } from './request-indexer-thread.js';

export interface RequestIndexerDeps {
  /** Where the passes run (`indexPassesFor`: a thread of its own on SQLite). */
  passes: IndexPasses;
  log: {
    error(details: object, message: string): void;
    warn(details: object, message: string): void;
  };
}

/**
 * The management server's side of reporting: turns the segments the gateways append into the request
 * rows, logs and rollups that the logs, analytics and alerts read (storage's segment-indexer.ts). Each of
 * those reads calls `catchUp` first, so that its answer holds every request reported before it; the
 * scheduler's job indexes every second in between, so that a read rarely has more than a second's
 * traffic to wait for. Calls that come while a pass runs share the next pass.
 */
export class RequestIndexer {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** Told after each pass of what it indexed (metrics, tests). */
  onPass: ((result: IndexedSegments) => void) | undefined;

  constructor(private readonly deps: RequestIndexerDeps) {}

  /**
   * Resolves once every segment written before the call is indexed. Never rejects: when the pass
   * fails (the database busy for too long), the read answers with the rows there are, and the failure
   * is logged.
   */
  catchUp(): Promise<void> {
    return this.indexed().catch((error: unknown) =>
      this.deps.log.warn(
        { err: error },
        'request rows not brought up to date: the answer may lack the latest',
      ),
    );
  }

  async close(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.deps.passes.close();
  }

  private indexed(): Promise<void> {
    if (!this.running) return this.start();
    // A pass is under way and may have read its list before the caller's segments were written.
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  /** The scheduler's job: keeps the rows at most about a tick behind the gateways. */
  job(): ScheduledJob {
    return { name: 'request-indexer', run: () => this.indexed() };
  }

  private start(): Promise<void> {
    const pass = this.pass().finally(() => {
      if (this.running === pass) this.running = undefined;
    });
    this.running = pass;
    return pass;
  }

  private async pass(): Promise<void> {
    const result = await this.deps.passes.pass();
    if (result.rejected.segments > 0) {
      this.deps.log.error(
        {
          segments: result.rejected.segments,
          requests: result.rejected.requests,
          reasons: result.rejected.reasons,
        },
        'request segments set aside: their requests are not in the logs and analytics',
      );
    }
    this.onPass?.(result);
  }
}
