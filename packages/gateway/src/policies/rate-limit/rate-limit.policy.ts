import { z } from 'zod';
import { definePolicy, deny } from '../policy.js';
import type { PolicyContext, RequestOutcome } from '../policy.js';
import type { CounterResult } from '../../counters/counters.js';
import { RateLimitUnit, periodMs } from '../time-units.js';
import type { PeriodUnit } from '../time-units.js';

export const RateLimitConfig = z.object({
  rate: z.object({
    limit: z.number().int().min(0).describe('Calls allowed per period'),
    periodTime: z.number().int().min(1).default(1),
    periodTimeUnit: RateLimitUnit.default('SECONDS'),
    /** Extra part of the counter key (for instance a header value); the subscription is always part of it. */
    key: z.string().default(''),
  }),
  addHeaders: z.boolean().default(true),
});
export type RateLimitConfig = z.infer<typeof RateLimitConfig>;

/** The counter key: per API, plan and subscription (keyless plans: per client address). */
export function consumerKey(ctx: PolicyContext, kind: string, extra: string): string {
  const c = ctx.consumer;
  return `${kind}:${ctx.apiId}:${c.planId ?? '-'}:${c.subscriptionId ?? ctx.request.remoteAddress}:${extra}`;
}

/** A kind of counter (rate limit, quota): its key prefix, response headers and refusal. */
export interface UnitCounter {
  kind: string;
  limitHeader: string;
  remainingHeader: string;
  resetHeader: string;
  key: string;
  message: string;
}

/** The counter `kind` whose headers are named `<headers>-limit`, `-remaining` and `-reset`. */
export function unitCounter(kind: string, headers: string, key: string, message: string): UnitCounter {
  return {
    kind,
    limitHeader: `${headers}-limit`,
    remainingHeader: `${headers}-remaining`,
    resetHeader: `${headers}-reset`,
    key,
    message,
  };
}

interface UnitLimits {
  limit: number;
  periodTime: number;
  periodTimeUnit: PeriodUnit;
  key: string;
}

/**
 * Takes one call from the consumer's counter of a rate limit or quota: adds the counter's headers to the
 * response and refuses the call beyond the limit. In-memory counters answer at once, so the common case
 * makes no promise (and no closure).
 */
export function takeUnit(
  ctx: PolicyContext,
  counter: UnitCounter,
  limits: UnitLimits,
  addHeaders: boolean,
): RequestOutcome | Promise<RequestOutcome> {
  const result = ctx.counters.take(
    consumerKey(ctx, counter.kind, limits.key),
    limits.limit,
    periodMs(limits.periodTime, limits.periodTimeUnit),
  );
  return result instanceof Promise
    ? result.then((r) => decide(ctx, counter, limits, addHeaders, r))
    : decide(ctx, counter, limits, addHeaders, result);
}

function decide(
  ctx: PolicyContext,
  counter: UnitCounter,
  limits: UnitLimits,
  addHeaders: boolean,
  result: CounterResult,
): RequestOutcome {
  if (addHeaders) {
    ctx.responseHeaders[counter.limitHeader] = String(limits.limit);
    ctx.responseHeaders[counter.remainingHeader] = String(result.remaining);
    ctx.responseHeaders[counter.resetHeader] = String(result.resetAt);
  }
  if (!result.allowed) {
    return deny(
      429,
      counter.key,
      `${counter.message} You reached the limit of ${limits.limit} requests per ${limits.periodTime} ${limits.periodTimeUnit.toLowerCase()}`,
    );
  }
}

const RATE_LIMIT = unitCounter('rl', 'x-rate-limit', 'RATE_LIMIT_TOO_MANY_REQUESTS', 'Rate limit exceeded!');

export const rateLimit = definePolicy({
  id: 'rate-limit',
  name: 'Rate limiting',
  description: 'Limits the number of calls per short period (seconds, minutes) for a subscription.',
  configSchema: RateLimitConfig,
  writesNoInputIntoHeaders: true,
  onRequest(ctx, config) {
    return takeUnit(ctx, RATE_LIMIT, config.rate, config.addHeaders);
  },
});
