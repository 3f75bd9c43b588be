import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Database } from '@portico/storage';
import { acquireLease, releaseLease } from '@portico/storage';
import type { Kysely } from 'kysely';

/** Scheduled work: run at every tick of the process holding the lease; must be idempotent. */
export interface ScheduledJob {
  name: string;
  run(): Promise<void>;
}

export interface SchedulerOptions {
  /** How often the jobs run (default 1 s). */
  tickMs?: number;
  /** How long a lease holds without renewal: another process takes over after it (default 30 s). */
  leaseMs?: number;
  /** This process's name in the lease (default: host name, process id and a new UUID). */
  owner?: string;
  now(): number;
  log: { warn(details: object, message: string): void };
}

/** The lease every management process competes for: its holder runs all the jobs. */
export const SCHEDULER_LEASE = 'scheduler';

/**
 * The management process's one scheduler (ARCHITECTURE.md "Schedulers"): at each tick it takes or
 * renews a lease row in the database, and only the holder runs the jobs, so a second management
 * process never doubles the work; if the holder dies, another takes over once the lease expires.
 * Jobs claim their own units of work too (dictionary polls are claimed row by row), so a tick that
 * overlaps a takeover still does each unit once.
 */
export class Scheduler {
  private readonly jobs: ScheduledJob[] = [];
  private readonly owner: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;
  /** Whether the last tick held the lease (metrics). */
  leaseHeld = false;
  /** Told of every job run: its name, whether it succeeded, how long it took in seconds (metrics). */
  onJobRun: ((job: string, ok: boolean, seconds: number) => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SchedulerOptions,
  ) {
    // Who holds the lease is readable by an operator (and a test): which host, which process.
    this.owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID()}`;
  }

  add(job: ScheduledJob): void {
    this.jobs.push(job);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.tickMs ?? 1000);
    this.timer.unref();
  }

  /** One tick: true when this process held the lease and ran the jobs. */
  tick(): Promise<boolean> {
    this.running ??= this.runTick().finally(() => (this.running = undefined));
    return this.running;
  }

  private async runTick(): Promise<boolean> {
    let held: boolean;
    try {
      held = await acquireLease(
        this.db,
        SCHEDULER_LEASE,
        this.owner,
        this.options.now(),
        this.options.leaseMs ?? 30_000,
      );
    } catch (error) {
      this.options.log.warn({ err: error }, 'scheduler: lease not taken (database unavailable?)');
      this.leaseHeld = false;
      return false;
    }
    this.leaseHeld = held;
    if (!held) return false;
    for (const job of this.jobs) {
      const started = process.hrtime.bigint();
      const ran = (ok: boolean) =>
        this.onJobRun?.(job.name, ok, Number(process.hrtime.bigint() - started) / 1e9);
      try {
        await job.run();
        ran(true);
      } catch (error) {
        ran(false);
        this.options.log.warn(
          { err: error, job: job.name },
          'scheduled job failed; it runs again at the next tick',
        );
      }
    }
    return true;
  }

  /** Stops ticking, waits for the tick under way and gives the lease up for another process. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await releaseLease(this.db, SCHEDULER_LEASE, this.owner).catch(() => {});
  }
}
