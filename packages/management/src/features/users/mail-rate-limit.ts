import { DomainError } from '@portico/model';
import type { Database } from '@portico/storage';
import { insertRateHit, recentRateHits } from '@portico/storage';
import type { Kysely } from 'kysely';

/** Mails of accounts (registration links, password links) one email address may receive. */
export const MAILS_PER_EMAIL = { limit: 3, windowMs: 15 * 60 * 1000 };
/** Self-registrations one client address may ask for. */
export const REGISTRATIONS_PER_ADDRESS = { limit: 10, windowMs: 60 * 60 * 1000 };

export const TOO_MANY_MAILS = (seconds: number) =>
  new DomainError(
    429,
    `Too many mails were sent to this address: try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
    'TOO_MANY_MAILS',
    { retryAfter: String(seconds), field: 'email' },
  );
export const TOO_MANY_REGISTRATIONS = (seconds: number) =>
  new DomainError(
    429,
    `Too many registrations from your address: try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
    'TOO_MANY_REGISTRATIONS',
    { retryAfter: String(seconds) },
  );

/** A sliding window: at most `limit` events per key in any `windowMs`, counted in the database. */
class SlidingWindow {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly scope: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until the key may have one more event (0: now). */
  async waitMs(key: string): Promise<number> {
    const now = this.now();
    const recent = await recentRateHits(this.db, this.scope, key, now - this.windowMs, this.limit);
    return recent.length < this.limit ? 0 : recent[this.limit - 1]! + this.windowMs - now;
  }

  record(key: string): Promise<void> {
    return insertRateHit(this.db, this.scope, key, this.now());
  }
}

/**
 * Limits the mails the platform sends about accounts, so that nobody floods an inbox through
 * registration or password reset (per email) nor sprays registrations (per client address). The
 * counts live in the database: every management node sees the same (the scheduler forgets old ones).
 */
export class MailRateLimit {
  private readonly emails: SlidingWindow;
  private readonly addresses: SlidingWindow;

  constructor(db: Kysely<Database>, now: () => number) {
    this.emails = new SlidingWindow(db, 'mail-email', MAILS_PER_EMAIL.limit, MAILS_PER_EMAIL.windowMs, now);
    this.addresses = new SlidingWindow(
      db,
      'registration-address',
      REGISTRATIONS_PER_ADDRESS.limit,
      REGISTRATIONS_PER_ADDRESS.windowMs,
      now,
    );
  }

  /** Counts a self-registration of the address; 429 (with Retry-After) past the limit. */
  async takeAddress(address: string): Promise<void> {
    const wait = await this.addresses.waitMs(address);
    if (wait > 0) throw TOO_MANY_REGISTRATIONS(Math.ceil(wait / 1000));
    await this.addresses.record(address);
  }

  /** 429 (with Retry-After) when the email had its share of mails. */
  async assertEmail(email: string): Promise<void> {
    const wait = await this.emails.waitMs(email.toLowerCase());
    if (wait > 0) throw TOO_MANY_MAILS(Math.ceil(wait / 1000));
  }

  /** Counts a mail sent to the email. */
  recordEmail(email: string): Promise<void> {
    return this.emails.record(email.toLowerCase());
  }
}

/** The longest window of these limits: older events are forgotten. */
export const MAIL_LIMITS_WINDOW_MS = Math.max(MAILS_PER_EMAIL.windowMs, REGISTRATIONS_PER_ADDRESS.windowMs);
