/** The dashboard timeframes (section 9 of both specs), by id and range in milliseconds. */
export const TIMEFRAMES = [
  { id: '5m', range: 5 * 60_000 },
  { id: '30m', range: 30 * 60_000 },
  { id: '1h', range: 3_600_000 },
  { id: '3h', range: 3 * 3_600_000 },
  { id: '6h', range: 6 * 3_600_000 },
  { id: '12h', range: 12 * 3_600_000 },
  { id: '1d', range: 86_400_000 },
  { id: '3d', range: 3 * 86_400_000 },
  { id: '7d', range: 7 * 86_400_000 },
  { id: '14d', range: 14 * 86_400_000 },
  { id: '30d', range: 30 * 86_400_000 },
  { id: '90d', range: 90 * 86_400_000 },
] as const;

export type TimeframeId = (typeof TIMEFRAMES)[number]['id'];

/** Instance history default: the last 24 hours, 10 a page. */
export const HISTORY_DEFAULT: TimeframeId = '1d';
export const HISTORY_PAGE_SIZES = [10, 25, 50, 75, 100] as const;

export const timeframeRange = (id: TimeframeId): number => TIMEFRAMES.find((t) => t.id === id)!.range;

/** Live cards: newest start first; the search matches hostname, ip, version, tenant and tags. */
export function liveCards<
  T extends {
    hostname: string;
    ip: string;
    version: string;
    tenant: string | null;
    tags: string[];
    started_at: number;
  },
>(instances: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  return instances
    .filter(
      (i) =>
        !needle ||
        [i.hostname, i.ip, i.version, i.tenant ?? '', ...i.tags].some((v) =>
          v.toLowerCase().includes(needle),
        ),
    )
    .sort((a, b) => b.started_at - a.started_at);
}
