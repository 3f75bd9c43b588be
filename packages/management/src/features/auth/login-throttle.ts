import type { Database } from '@portico/storage';
import { blockThrottle, clearThrottle, countThrottleFailure, findThrottle } from '@portico/storage';
import type { Kysely } from 'kysely';

/**
 * Slows down password guessing, counting failed sign-ins twice: per account (whatever the address,
 * against guessing one password from many addresses) and per address (whatever the account, against
 * trying one password on many accounts). After the free failures of a counter, each further attempt
 * must wait, twice as long after every new failure (capped), until the failures are old enough to be
 * forgotten. A success clears its own account's counter only: signing in to one's own account never
 * clears the failures of others, nor those of the address.
 *
 * The counters live in the database, so that every management node behind a load balancer sees the
 * same counts (a guesser gains nothing by spreading attempts over nodes); the scheduler forgets old
 * ones (`pruneThrottles`).
 */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 5 * 60 * 1000;
export const FORGET_FAILURES_AFTER_MS = 15 * 60 * 1000;

/** Failures an account may have before it must wait. */
export const ACCOUNT_FREE_FAILURES = 5;
/** Failures an address may have (on any accounts) before it must wait: offices share addresses. */
export const ADDRESS_FREE_FAILURES = 20;

const ACCOUNTS = 'login-account';
const ADDRESSES = 'login-address';

/** One counter of failures per key, with exponential back-off past the free failures. */
class Backoff {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly scope: string,
    private readonly freeFailures: number,
    private readonly now: () => number,
  ) {}

  async waitMs(key: string): Promise<number> {
    const now = this.now();
    const entry = await findThrottle(this.db, this.scope, key, now, FORGET_FAILURES_AFTER_MS);
    return entry ? Math.max(entry.blockedUntil - now, 0) : 0;
  }

  async fail(key: string): Promise<void> {
    const now = this.now();
    const failures = await countThrottleFailure(this.db, this.scope, key, now, FORGET_FAILURES_AFTER_MS);
    if (failures >= this.freeFailures) {
      const delay = Math.min(FIRST_DELAY_MS * 2 ** (failures - this.freeFailures), MAX_DELAY_MS);
      await blockThrottle(this.db, this.scope, key, now + delay);
    }
  }

  clear(key: string): Promise<void> {
    return clearThrottle(this.db, this.scope, key);
  }
}

export class LoginThrottle {
  private readonly accounts: Backoff;
  private readonly addresses: Backoff;

  constructor(db: Kysely<Database>, now: () => number = Date.now) {
    this.accounts = new Backoff(db, ACCOUNTS, ACCOUNT_FREE_FAILURES, now);
    this.addresses = new Backoff(db, ADDRESSES, ADDRESS_FREE_FAILURES, now);
  }

  /** Seconds to wait before the account may be tried from the address, or 0 when it may. */
  async waitSeconds(account: string, address: string): Promise<number> {
    const [byAccount, byAddress] = await Promise.all([
      this.accounts.waitMs(accountKey(account)),
      this.addresses.waitMs(address),
    ]);
    const wait = Math.max(byAccount, byAddress);
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  async recordFailure(account: string, address: string): Promise<void> {
    await this.accounts.fail(accountKey(account));
    await this.addresses.fail(address);
  }

  /** The account signed in: its failures are forgotten (not those of the address). */
  recordSuccess(account: string): Promise<void> {
    return this.accounts.clear(accountKey(account));
  }
}

/** Usernames are matched whatever their case: so are their failures. */
const accountKey = (account: string) => account.trim().toLowerCase();
