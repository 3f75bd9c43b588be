import { describe, expect, it } from 'vitest';
import {
  TIMEFRAMES,
  intervalOf,
  refreshed,
  shownTimeframe,
  timeframeOf,
  windowFromParams,
  windowOf,
} from './timeframe';

describe('dashboard timeframes (section 9)', () => {
  it('has the ranges and buckets of the spec, 1d by default', () => {
    expect(TIMEFRAMES.map((t) => [t.id, t.interval / 1000])).toEqual([
      ['5m', 10],
      ['30m', 15],
      ['1h', 30],
      ['3h', 60],
      ['6h', 120],
      ['12h', 300],
      ['1d', 600],
      ['3d', 1800],
      ['7d', 3600],
      ['14d', 10_800],
      ['30d', 21_600],
      ['90d', 43_200],
    ]);
    const now = 1_800_000_000_000;
    expect(windowFromParams(new URLSearchParams(), now)).toEqual({ from: now - 86_400_000, to: now });
  });

  it('takes the bucket of a quick range, and of the smallest range covering a custom window', () => {
    const now = 1_800_000_000_000;
    expect(intervalOf(windowOf('5m', now))).toBe(10_000);
    expect(intervalOf(windowOf('7d', now))).toBe(3_600_000);
    expect(intervalOf({ from: now - 2 * 3_600_000, to: now })).toBe(60_000);
    expect(intervalOf({ from: now - 200 * 86_400_000, to: now })).toBe(43_200_000);
  });

  it('reads from and to of the URL, and moves a quick range (not a custom window) to now on refresh', () => {
    const params = new URLSearchParams('from=1000&to=301000');
    const w = windowFromParams(params, 5_000_000);
    expect(w).toEqual({ from: 1000, to: 301_000 });
    expect(timeframeOf(w)?.id).toBe('5m');
    expect(refreshed(w, 900_000)).toEqual({ from: 600_000, to: 900_000 });
    const custom = { from: 1000, to: 2000 };
    expect(refreshed(custom, 900_000)).toBe(custom);
    expect(windowFromParams(new URLSearchParams('from=5&to=1'), 100_000_000).to).toBe(100_000_000);
    // A day that ended a week ago is shown as custom dates, not as the last day.
    const day = windowOf('1d', 1_000_000_000);
    expect(shownTimeframe(day, 1_000_000_000 + 60_000)?.id).toBe('1d');
    expect(shownTimeframe(day, 1_000_000_000 + 7 * 86_400_000)).toBeUndefined();
  });
});
