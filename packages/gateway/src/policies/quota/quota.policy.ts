import { z } from 'zod';
import { definePolicy } from '../policy.js';
import { takeUnit } from '../rate-limit/rate-limit.policy.js';
import { QuotaUnit } from '../time-units.js';

export const QuotaConfig = z.object({
  quota: z.object({
    limit: z.number().int().min(0).describe('Calls allowed per period'),
    periodTime: z.number().int().min(1).default(1),
    periodTimeUnit: QuotaUnit.default('MONTHS'),
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
  onRequest(ctx, config) {
    return takeUnit(
      ctx,
      { kind: 'q', headers: 'x-quota', key: 'QUOTA_TOO_MANY_REQUESTS', message: 'Quota exceeded!' },
      config.quota,
      config.addHeaders,
    );
  },
});
