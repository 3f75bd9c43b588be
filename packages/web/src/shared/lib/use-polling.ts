import { useConfig } from '../config/config-context';
import { useWindowFocus } from './use-window-focus';

/** Default refresh of tasks and notifications, in seconds. */
export const DEFAULT_REFRESH_SECONDS = 10;

/** The refresh interval in milliseconds of `scheduler.tasks` or `scheduler.notifications` (seconds). */
export function refreshInterval(
  scheduler: Partial<Record<'tasks' | 'notifications', unknown>> | undefined,
  kind: 'tasks' | 'notifications',
): number {
  const seconds = Number(scheduler?.[kind]);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_REFRESH_SECONDS) * 1000;
}

/**
 * Refresh interval (ms) of a user's tasks or notifications: the configured seconds (10 s by default),
 * and polling only while the window has the focus.
 */
export function usePollingInterval(kind: 'tasks' | 'notifications'): { interval: number; active: boolean } {
  const config = useConfig();
  const focused = useWindowFocus();
  return { interval: refreshInterval(config.scheduler, kind), active: focused };
}
