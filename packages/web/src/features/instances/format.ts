import dayjs from 'dayjs';

/** An exact date and time of the instance tables; empty when absent. */
export const formatDateTime = (epochMs: number | null | undefined): string =>
  epochMs ? dayjs(epochMs).format('YYYY-MM-DD HH:mm:ss') : '';

/** Bytes in the largest unit that keeps one digit before the point (B, KB, MB, GB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A duration in milliseconds as days, hours, minutes and seconds (`2d 3h 4m 5s`). */
export function formatUptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const parts = [
    [Math.floor(s / 86400), 'd'],
    [Math.floor((s % 86400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'm'],
    [s % 60, 's'],
  ] as const;
  const first = parts.findIndex(([n]) => n > 0);
  return parts
    .slice(first === -1 ? 3 : first)
    .map(([n, u]) => `${n}${u}`)
    .join(' ');
}

/** Gauges turn red above 80 (section 9). */
export const gaugeColor = (percent: number): string =>
  percent > 80 ? 'red' : percent > 60 ? 'orange' : 'teal';
