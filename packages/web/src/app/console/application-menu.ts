import type { TranslationKey } from '../../shared/i18n/keys';

export interface ApplicationMenuEntry {
  /** Relative to `/management/applications/{applicationId}/` ('' for the general page). */
  path: string;
  label: TranslationKey;
  /** One of these application permissions is needed (console-applications-and-settings.md 2.1). */
  anyOf: readonly string[];
}

/** The application frame's menu. */
export const APPLICATION_MENU: readonly ApplicationMenuEntry[] = [
  { path: '', label: 'applications.menu.general', anyOf: ['application-definition-r'] },
  { path: 'subscriptions', label: 'applications.menu.subscriptions', anyOf: ['application-subscription-r'] },
  { path: 'members', label: 'applications.menu.members', anyOf: ['application-member-r'] },
  { path: 'logs', label: 'logs.menu', anyOf: ['application-log-r'] },
  { path: 'analytics', label: 'dashboards.menu.analytics', anyOf: ['application-analytics-r'] },
  {
    path: 'notifications',
    label: 'notificationSettings.menu',
    anyOf: ['application-notification-r', 'application-alert-r'],
  },
];

/** What the page at `path` (first segment under the application) needs. */
export const applicationPageNeeds = (path: string): readonly string[] =>
  APPLICATION_MENU.find((entry) => entry.path === path)?.anyOf ?? [];
