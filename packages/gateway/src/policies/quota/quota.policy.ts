import { z } from 'zod';
import { definePolicy, deny } from '../policy.js';
import { consumerKey } from '../rate-limit/rate-limit.policy.js';
import { PeriodUnit, periodMs } from '../time-units.js';

export const QuotaConfig = z.object({
  quota: z.object({
    limit: z.number().int().min(0).describe('Calls allowed per period'),
    periodTime: z.number().int().min(1).default(1),
    periodTimeUnit: PeriodUnit.default('MONTHS'),
    key: z.string().default(''),
  }),
  addHeaders: z.boolean().default(true),
});
export type QuotaConfig = z.infer<typeof QuotaConfig>;

export const quota = definePolicy({
  id: 'quota',
  name: 'Quota',
  description: 'Limits the number of calls per long period (hours, days, weeks, months) for a subscription.',
  configSchema: QuotaConfig,
  async onRequest(ctx, config) {
    const period = periodMs(config.quota.periodTime, config.quota.periodTimeUnit);
    const result = await ctx.counters.take(
      consumerKey(ctx, 'q', config.quota.key),
      config.quota.limit,
      period,
    );
    if (config.addHeaders) {
      ctx.responseHeaders['x-quota-limit'] = String(config.quota.limit);
      ctx.responseHeaders['x-quota-remaining'] = String(result.remaining);
      ctx.responseHeaders['x-quota-reset'] = String(result.resetAt);
    }
    if (!result.allowed) {
      return deny(
        429,
        'QUOTA_TOO_MANY_REQUESTS',
        `Quota exceeded! You reached the limit of ${config.quota.limit} requests per ${config.quota.periodTime} ${config.quota.periodTimeUnit.toLowerCase()}`,
      );
    }
  },
});
