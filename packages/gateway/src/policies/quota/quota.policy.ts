import { z } from 'zod';
import { definePolicy } from '../policy.js';
import { takeUnit, unitCounter } from '../rate-limit/rate-limit.policy.js';
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

const QUOTA = unitCounter('q', 'x-quota', 'QUOTA_TOO_MANY_REQUESTS', 'Quota exceeded!');

export const quota = definePolicy({
  id: 'quota',
  name: 'Quota',
  description: 'Limits the number of calls per long period (hours, days, weeks, months) for a subscription.',
  configSchema: QuotaConfig,
  writesNoInputIntoHeaders: true,
  onRequest(ctx, config) {
    return takeUnit(ctx, QUOTA, config.quota, config.addHeaders);
  },
});
