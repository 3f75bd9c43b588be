import { useEffect, useRef } from 'react';
import type { Page } from '../../shared/lib/paging';
import type { UserNotification } from './api/notifications';

/**
 * The notifications that arrived since the previous count: the first (total - previous) of the
 * newest-first list. Nothing on the first count (those are not new to the user).
 */
export function newNotifications(
  previousTotal: number | undefined,
  page: Page<UserNotification>,
): UserNotification[] {
  if (previousTotal === undefined) return [];
  const added = page.page.total_elements - previousTotal;
  return added > 0 ? page.data.slice(0, added) : [];
}

export const desktopNotificationsSupported = () => typeof window !== 'undefined' && 'Notification' in window;

/** Raises a desktop notification for each new user notification (when the user allowed them). */
export function useDesktopNotifications(page: Page<UserNotification> | undefined): void {
  const previousTotal = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!page) return;
    const fresh = newNotifications(previousTotal.current, page);
    previousTotal.current = page.page.total_elements;
    if (!desktopNotificationsSupported() || Notification.permission !== 'granted') return;
    for (const notification of fresh) {
      new Notification(notification.title, { body: notification.message, tag: notification.id });
    }
  }, [page]);
}
