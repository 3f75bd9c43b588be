/** The outcome of taking one unit from a counter. */
export interface CounterResult {
  /** Whether the unit was within the limit. */
  allowed: boolean;
  /** Units left in the current period (0 when refused). */
  remaining: number;
  /** When the current period ends (epoch ms). */
  resetAt: number;
}

/**
 * Counters of rate limits and quotas: a fixed window of `periodMs` per key. In memory for one gateway,
 * in Redis when shared by several (a limit of N then holds across all of them).
 */
export interface Counters {
  /** In memory the answer is immediate (no promise); shared counters answer with a promise. */
  take(key: string, limit: number, periodMs: number): CounterResult | Promise<CounterResult>;
  close(): Promise<void>;
}

/** Counters of one process. */
export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private sweeps = 0;

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, limit: number, periodMs: number): CounterResult {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: windowEnd(now, periodMs) };
      this.windows.set(key, window);
    }
    if ((++this.sweeps & 0xfff) === 0) this.sweep(now);
    if (window.count >= limit) return { allowed: false, remaining: 0, resetAt: window.resetAt };
    window.count += 1;
    return { allowed: true, remaining: limit - window.count, resetAt: window.resetAt };
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {}
}

/** Windows are aligned on the period, so every gateway agrees on when one starts. */
export function windowEnd(now: number, periodMs: number): number {
  return (Math.floor(now / periodMs) + 1) * periodMs;
}
