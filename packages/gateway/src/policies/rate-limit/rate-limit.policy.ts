import { z } from 'zod';
import { definePolicy, deny } from '../policy.js';
import type { PolicyContext } from '../policy.js';
import { PeriodUnit, periodMs } from '../time-units.js';

export const RateLimitConfig = z.object({
  rate: z.object({
    limit: z.number().int().min(0).describe('Calls allowed per period'),
    periodTime: z.number().int().min(1).default(1),
    periodTimeUnit: PeriodUnit.default('SECONDS'),
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

export const rateLimit = definePolicy({
  id: 'rate-limit',
  name: 'Rate limiting',
  description: 'Limits the number of calls per short period (seconds, minutes) for a subscription.',
  configSchema: RateLimitConfig,
  async onRequest(ctx, config) {
    const period = periodMs(config.rate.periodTime, config.rate.periodTimeUnit);
    const result = await ctx.counters.take(
      consumerKey(ctx, 'rl', config.rate.key),
      config.rate.limit,
      period,
    );
    if (config.addHeaders) {
      ctx.responseHeaders['x-rate-limit-limit'] = String(config.rate.limit);
      ctx.responseHeaders['x-rate-limit-remaining'] = String(result.remaining);
      ctx.responseHeaders['x-rate-limit-reset'] = String(result.resetAt);
    }
    if (!result.allowed) {
      return deny(
        429,
        'RATE_LIMIT_TOO_MANY_REQUESTS',
        `Rate limit exceeded! You reached the limit of ${config.rate.limit} requests per ${config.rate.periodTime} ${config.rate.periodTimeUnit.toLowerCase()}`,
      );
    }
  },
});
