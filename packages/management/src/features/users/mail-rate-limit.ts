import { DomainError } from '@portico/model';

/** Mails of accounts (registration links, password links) one email address may receive. */
export const MAILS_PER_EMAIL = { limit: 3, windowMs: 15 * 60 * 1000 };
/** Self-registrations one client address may ask for. */
export const REGISTRATIONS_PER_ADDRESS = { limit: 10, windowMs: 60 * 60 * 1000 };
const MAX_KEYS = 10_000;

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

/** A sliding window: at most `limit` events per key in any `windowMs`. */
class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until the key may have one more event (0: now). */
  waitMs(key: string): number {
    const recent = this.recent(key);
    return recent.length < this.limit ? 0 : recent[recent.length - this.limit]! + this.windowMs - this.now();
  }

  record(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.hits.delete(key); // re-inserted last: the oldest keys go first when over the cap
    this.hits.set(key, recent.slice(-this.limit));
    if (this.hits.size > MAX_KEYS) this.hits.delete(this.hits.keys().next().value!);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.hits.get(key) ?? []).filter((at) => at > since);
  }
}

/**
 * Limits the mails the platform sends about accounts, so that nobody floods an inbox through
 * registration or password reset (per email) nor sprays registrations (per client address).
 */
export class MailRateLimit {
  private readonly emails: SlidingWindow;
  private readonly addresses: SlidingWindow;

  constructor(now: () => number) {
    this.emails = new SlidingWindow(MAILS_PER_EMAIL.limit, MAILS_PER_EMAIL.windowMs, now);
    this.addresses = new SlidingWindow(
      REGISTRATIONS_PER_ADDRESS.limit,
      REGISTRATIONS_PER_ADDRESS.windowMs,
      now,
    );
  }

  /** Counts a self-registration of the address; 429 (with Retry-After) past the limit. */
  takeAddress(address: string): void {
    const wait = this.addresses.waitMs(address);
    if (wait > 0) throw TOO_MANY_REGISTRATIONS(Math.ceil(wait / 1000));
    this.addresses.record(address);
  }

  /** 429 (with Retry-After) when the email had its share of mails. */
  assertEmail(email: string): void {
    const wait = this.emails.waitMs(email.toLowerCase());
    if (wait > 0) throw TOO_MANY_MAILS(Math.ceil(wait / 1000));
  }

  /** Counts a mail sent to the email. */
  recordEmail(email: string): void {
    this.emails.record(email.toLowerCase());
  }
}
