/**
 * Slows down password guessing: after FREE_FAILURES failed sign-ins from one address, each further
 * attempt must wait, twice as long after every new failure (capped), until a success or until the
 * failures are old enough to be forgotten.
 */
const FREE_FAILURES = 5;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 5 * 60 * 1000;
const FORGET_AFTER_MS = 15 * 60 * 1000;

interface Entry {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds the address must still wait, or 0 when it may try. */
  waitSeconds(address: string): number {
    const entry = this.current(address);
    if (!entry) return 0;
    const wait = entry.blockedUntil - this.now();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  recordFailure(address: string): void {
    const now = this.now();
    const entry = this.current(address) ?? { failures: 0, lastFailureAt: now, blockedUntil: 0 };
    entry.failures += 1;
    entry.lastFailureAt = now;
    if (entry.failures >= FREE_FAILURES) {
      const delay = Math.min(FIRST_DELAY_MS * 2 ** (entry.failures - FREE_FAILURES), MAX_DELAY_MS);
      entry.blockedUntil = now + delay;
    }
    this.entries.set(address, entry);
    if (this.entries.size > 10_000) this.prune();
  }

  recordSuccess(address: string): void {
    this.entries.delete(address);
  }

  private current(address: string): Entry | undefined {
    const entry = this.entries.get(address);
    if (entry && this.now() - entry.lastFailureAt > FORGET_AFTER_MS && this.now() > entry.blockedUntil) {
      this.entries.delete(address);
      return undefined;
    }
    return entry;
  }

  private prune(): void {
    for (const address of [...this.entries.keys()]) this.current(address);
  }
}
