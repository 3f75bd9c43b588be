/**
 * Slows down password guessing, counting failed sign-ins twice: per account (whatever the address,
 * against guessing one password from many addresses) and per address (whatever the account, against
 * trying one password on many accounts). After the free failures of a counter, each further attempt
 * must wait, twice as long after every new failure (capped), until the failures are old enough to be
 * forgotten. A success clears its own account's counter only: signing in to one's own account never
 * clears the failures of others, nor those of the address.
 */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 5 * 60 * 1000;
const FORGET_AFTER_MS = 15 * 60 * 1000;
const MAX_ENTRIES = 10_000;

/** Failures an account may have before it must wait. */
export const ACCOUNT_FREE_FAILURES = 5;
/** Failures an address may have (on any accounts) before it must wait: offices share addresses. */
export const ADDRESS_FREE_FAILURES = 20;

interface Entry {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

/** One counter of failures per key, with exponential back-off past the free failures. */
class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly freeFailures: number,
    private readonly now: () => number,
  ) {}

  waitMs(key: string): number {
    const entry = this.current(key);
    return entry ? Math.max(entry.blockedUntil - this.now(), 0) : 0;
  }

  fail(key: string): void {
    const now = this.now();
    const entry = this.current(key) ?? { failures: 0, lastFailureAt: now, blockedUntil: 0 };
    entry.failures += 1;
    entry.lastFailureAt = now;
    if (entry.failures >= this.freeFailures) {
      const delay = Math.min(FIRST_DELAY_MS * 2 ** (entry.failures - this.freeFailures), MAX_DELAY_MS);
      entry.blockedUntil = now + delay;
    }
    this.entries.delete(key); // re-inserted last: the map stays ordered by last failure
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) this.prune();
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private current(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry && now - entry.lastFailureAt > FORGET_AFTER_MS && now > entry.blockedUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Forgets old entries; past the cap (a spray of names), the least recently failed ones. */
  private prune(): void {
    for (const key of [...this.entries.keys()]) this.current(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(key);
    }
  }
}

export class LoginThrottle {
  private readonly accounts: Backoff;
  private readonly addresses: Backoff;

  constructor(now: () => number = Date.now) {
    this.accounts = new Backoff(ACCOUNT_FREE_FAILURES, now);
    this.addresses = new Backoff(ADDRESS_FREE_FAILURES, now);
  }

  /** Seconds to wait before the account may be tried from the address, or 0 when it may. */
  waitSeconds(account: string, address: string): number {
    const wait = Math.max(this.accounts.waitMs(accountKey(account)), this.addresses.waitMs(address));
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  recordFailure(account: string, address: string): void {
    this.accounts.fail(accountKey(account));
    this.addresses.fail(address);
  }

  /** The account signed in: its failures are forgotten (not those of the address). */
  recordSuccess(account: string): void {
    this.accounts.clear(accountKey(account));
  }
}

/** Usernames are matched whatever their case: so are their failures. */
const accountKey = (account: string) => account.trim().toLowerCase();
