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

/**
 * Takes one call from the consumer's counter of a rate limit or quota: adds the counter's headers to the
 * response and refuses the call beyond the limit. In-memory counters answer at once, so the common case
 * makes no promise.
 */
export function takeUnit(
  ctx: PolicyContext,
  counter: { kind: string; headers: string; key: string; message: string },
  limits: { limit: number; periodTime: number; periodTimeUnit: PeriodUnit; key: string },
  addHeaders: boolean,
): RequestOutcome | Promise<RequestOutcome> {
  const { limit, periodTime, periodTimeUnit } = limits;
  const decide = (result: CounterResult): RequestOutcome => {
    if (addHeaders) {
      ctx.responseHeaders[`${counter.headers}-limit`] = String(limit);
      ctx.responseHeaders[`${counter.headers}-remaining`] = String(result.remaining);
      ctx.responseHeaders[`${counter.headers}-reset`] = String(result.resetAt);
    }
    if (!result.allowed) {
      return deny(
        429,
        counter.key,
        `${counter.message} You reached the limit of ${limit} requests per ${periodTime} ${periodTimeUnit.toLowerCase()}`,
      );
    }
  };
  const result = ctx.counters.take(
    consumerKey(ctx, counter.kind, limits.key),
    limit,
    periodMs(periodTime, periodTimeUnit),
  );
  return result instanceof Promise ? result.then(decide) : decide(result);
}

export const rateLimit = definePolicy({
  id: 'rate-limit',
  name: 'Rate limiting',
  description: 'Limits the number of calls per short period (seconds, minutes) for a subscription.',
  configSchema: RateLimitConfig,
  onRequest(ctx, config) {
    return takeUnit(
      ctx,
      {
        kind: 'rl',
        headers: 'x-rate-limit',
        key: 'RATE_LIMIT_TOO_MANY_REQUESTS',
        message: 'Rate limit exceeded!',
      },
      config.rate,
      config.addHeaders,
    );
  },
});
