/**
 * Dashboard timeframes of section 9 of both console specs: each quick range with its histogram bucket
 * (range / bucket: 5m/10s ... 90d/12h), default 1d; auto-refresh off, 5 s, 10 s or 30 s.
 */
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

export const TIMEFRAMES = [
  { id: '5m', range: 5 * M, interval: 10 * S },
  { id: '30m', range: 30 * M, interval: 15 * S },
  { id: '1h', range: H, interval: 30 * S },
  { id: '3h', range: 3 * H, interval: M },
  { id: '6h', range: 6 * H, interval: 2 * M },
  { id: '12h', range: 12 * H, interval: 5 * M },
  { id: '1d', range: D, interval: 10 * M },
  { id: '3d', range: 3 * D, interval: 30 * M },
  { id: '7d', range: 7 * D, interval: H },
  { id: '14d', range: 14 * D, interval: 3 * H },
  { id: '30d', range: 30 * D, interval: 6 * H },
  { id: '90d', range: 90 * D, interval: 12 * H },
] as const;

export type TimeframeId = (typeof TIMEFRAMES)[number]['id'];
export const DEFAULT_TIMEFRAME: TimeframeId = '1d';

/** Auto-refresh choices in seconds; 0 is off (the default). */
export const REFRESH_CHOICES = [0, 5, 10, 30] as const;

/** Timeframe update delay (section 9): changes settle this long before the widgets ask again. */
export const TIMEFRAME_UPDATE_DELAY = 200;

export interface Window {
  from: number;
  to: number;
}

export const timeframeById = (id: string) => TIMEFRAMES.find((t) => t.id === id);

/** The quick range that spans exactly `to - from`, if any (a window set by a quick range). */
export const timeframeOf = (w: Window) => TIMEFRAMES.find((t) => t.range === w.to - w.from);

/**
 * The quick range the picker shows for a window: one of that span that ended lately (within a tenth of
 * its range); an older window of the same span is custom dates.
 */
export function shownTimeframe(w: Window, now: number) {
  const quick = timeframeOf(w);
  return quick && Math.abs(now - w.to) <= quick.range / 10 ? quick : undefined;
}

/**
 * The bucket of a window, as the timeframe picker does it: the bucket of the smallest quick range
 * covering the window (a custom range longer than 90 days takes the 90-day bucket).
 */
export function intervalOf(w: Window): number {
  const span = w.to - w.from;
  return (TIMEFRAMES.find((t) => t.range >= span) ?? TIMEFRAMES[TIMEFRAMES.length - 1]!).interval;
}

/** The window of a quick range ending now. */
export function windowOf(id: TimeframeId, now: number): Window {
  return { from: now - timeframeById(id)!.range, to: now };
}

/** The window in the URL (`from`, `to` in epoch ms), else the default timeframe ending now. */
export function windowFromParams(params: URLSearchParams, now: number): Window {
  const from = Number(params.get('from'));
  const to = Number(params.get('to'));
  if (params.get('from') && params.get('to') && Number.isFinite(from) && Number.isFinite(to) && from < to)
    return { from, to };
  return windowOf(DEFAULT_TIMEFRAME, now);
}

/** The same span ending now (refresh of a quick range); a custom window stays as it is. */
export function refreshed(w: Window, now: number): Window {
  const quick = timeframeOf(w);
  return quick ? windowOf(quick.id, now) : w;
}
