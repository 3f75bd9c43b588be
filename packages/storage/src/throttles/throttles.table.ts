/** Failures counted per key (a sign-in throttle), with the time until which the key must wait. */
export interface ThrottleCounterTable {
  scope: string;
  key: string;
  failures: number;
  last_failure_at: number;
  blocked_until: number;
}

/** One counted event of a sliding-window limit (a mail sent to an email, a registration of an address). */
export interface RateHitTable {
  scope: string;
  key: string;
  at: number;
}
