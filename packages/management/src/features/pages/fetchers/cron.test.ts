import { describe, expect, it } from 'vitest';
import { nextCronTime } from './cron.js';

const at = (iso: string) => Date.parse(iso);

describe('fetchCron expressions', () => {
  it('gives the next minute matching a 5-field expression, in UTC', () => {
    expect(nextCronTime('*/15 * * * *', at('2026-01-01T10:07:30Z'))).toBe(at('2026-01-01T10:15:00Z'));
    expect(nextCronTime('0 3 * * *', at('2026-01-01T10:07:30Z'))).toBe(at('2026-01-02T03:00:00Z'));
    expect(nextCronTime('30 8 1 * *', at('2026-01-31T09:00:00Z'))).toBe(at('2026-02-01T08:30:00Z'));
    expect(nextCronTime('0 9 * * 1-5', at('2026-01-03T10:00:00Z'))).toBe(at('2026-01-05T09:00:00Z'));
  });

  it('reads a 6-field expression with the seconds first, as Gravitee fetchers have them', () => {
    expect(nextCronTime('30 */5 * * * *', at('2026-01-01T10:05:30Z'))).toBe(at('2026-01-01T10:10:30Z'));
    expect(nextCronTime('0 0 12 * * ?', at('2026-01-01T12:00:00Z'))).toBe(at('2026-01-02T12:00:00Z'));
  });

  it('refuses what is not a cron expression', () => {
    for (const bad of [
      '',
      'every minute',
      '* * * *',
      '61 * * * *',
      '* * * * * * *',
      '*/0 * * * *',
      '5-1 * * * *',
    ])
      expect(nextCronTime(bad, 0), bad).toBeUndefined();
  });
});
