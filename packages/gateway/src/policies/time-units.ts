import { z } from 'zod';

export const PERIOD_UNITS = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS', 'WEEKS', 'MONTHS'] as const;
export const PeriodUnit = z.enum(PERIOD_UNITS);
export type PeriodUnit = z.infer<typeof PeriodUnit>;
/** The units of the spec: a rate limit counts per seconds or minutes, a quota per longer periods. */
export const RateLimitUnit = z.enum(['SECONDS', 'MINUTES']);
export const QuotaUnit = z.enum(['HOURS', 'DAYS', 'WEEKS', 'MONTHS']);

const MS: Record<PeriodUnit, number> = {
  SECONDS: 1000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
  WEEKS: 7 * 86_400_000,
  MONTHS: 30 * 86_400_000,
};

export function periodMs(time: number, unit: PeriodUnit): number {
  return time * MS[unit];
}
