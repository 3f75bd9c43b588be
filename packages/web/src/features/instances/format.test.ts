import { describe, expect, it } from 'vitest';
import { formatBytes, formatUptime, gaugeColor } from './format';
import { HISTORY_DEFAULT, HISTORY_PAGE_SIZES, liveCards, timeframeRange } from './timeframes';

const gateway = (hostname: string, started_at: number, extra: { tenant?: string; tags?: string[] } = {}) => ({
  ...{ hostname, ip: '10.0.0.1', version: '1.0.0', tenant: extra.tenant ?? null },
  ...{ tags: extra.tags ?? [], started_at },
});

describe('gateway instance screens', () => {
  it('turns a gauge red above 80 (section 9), not at 80', () => {
    expect(gaugeColor(81)).toBe('red');
    expect(gaugeColor(100)).toBe('red');
    expect(gaugeColor(80)).not.toBe('red');
    expect(gaugeColor(0)).not.toBe('red');
  });

  it('sorts the live cards by start, newest first, and searches host, tenant and tags', () => {
    const list = [
      gateway('old', 1),
      gateway('new', 3, { tenant: 'europe' }),
      gateway('mid', 2, { tags: ['edge'] }),
    ];
    expect(liveCards(list, '').map((g) => g.hostname)).toEqual(['new', 'mid', 'old']);
    expect(liveCards(list, ' EUROPE ').map((g) => g.hostname)).toEqual(['new']);
    expect(liveCards(list, 'edge').map((g) => g.hostname)).toEqual(['mid']);
    expect(liveCards(list, '10.0.0.1')).toHaveLength(3);
  });

  it('shows the last 24 hours of history, 10 a page by default', () => {
    expect(timeframeRange(HISTORY_DEFAULT)).toBe(86_400_000);
    expect(HISTORY_PAGE_SIZES).toEqual([10, 25, 50, 75, 100]);
  });

  it('formats sizes and uptimes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatUptime(2 * 86_400_000 + 3 * 3_600_000 + 5_000)).toBe('2d 3h 0m 5s');
    expect(formatUptime(0)).toBe('0s');
  });
});
