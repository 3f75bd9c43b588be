import type { TranslationKey } from '../../shared/i18n/keys';
import { hasAnyPermission, isAdmin } from '../../shared/session/permissions';
import type { CurrentUser } from '../../shared/session/permissions';
import type { Screen } from '../screens';
import { settingsPermissions } from './settings/settings-menu';
import { AVAILABLE_SCREENS } from '../screens';

export type ConsoleMenuIcon =
  'apis' | 'applications' | 'gateways' | 'dashboard' | 'audit' | 'messages' | 'settings';

export interface ConsoleMenuEntry {
  screen: Screen;
  path: string;
  label: TranslationKey;
  icon: ConsoleMenuIcon;
  /** Menu order; equal orders keep the order of this list. */
  order: number;
  /** One of them is needed; empty for every user. */
  anyOf: readonly string[];
  /** Shown to non-administrators in developer-portal-only mode too. */
  devMode?: boolean;
}

/** Permissions that open the settings area (any existing settings screen the user may see). */
export const SETTINGS_PERMISSIONS: readonly string[] = settingsPermissions();

/** First-level entries of the console (console-applications-and-settings.md 2.1 to 2.3). */
export const CONSOLE_MENU: readonly ConsoleMenuEntry[] = [
  {
    screen: 'management.apis.list',
    path: '/management/apis',
    label: 'console.menu.apis',
    icon: 'apis',
    order: 10,
    anyOf: [],
  },
  {
    screen: 'management.applications',
    path: '/management/applications',
    label: 'console.menu.applications',
    icon: 'applications',
    order: 20,
    anyOf: [],
    devMode: true,
  },
  {
    screen: 'management.instances',
    path: '/management/instances',
    label: 'console.menu.gateways',
    icon: 'gateways',
    order: 30,
    anyOf: ['management-instance-r'],
  },
  {
    screen: 'management.platform',
    path: '/management/platform',
    label: 'console.menu.dashboard',
    icon: 'dashboard',
    order: 40,
    anyOf: ['management-platform-r'],
  },
  {
    screen: 'management.audit',
    path: '/management/audit',
    label: 'console.menu.audit',
    icon: 'audit',
    order: 50,
    anyOf: ['management-audit-r'],
  },
  {
    screen: 'management.messages',
    path: '/management/messages',
    label: 'console.menu.messages',
    icon: 'messages',
    order: 50,
    anyOf: ['management-message-c'],
  },
  {
    screen: 'management.settings',
    path: '/management/settings',
    label: 'console.menu.settings',
    icon: 'settings',
    order: 50,
    anyOf: SETTINGS_PERMISSIONS,
  },
];

/** The entries a user sees, in menu order: permitted and with an existing screen. */
export function visibleMenu(
  user: CurrentUser | null,
  available: ReadonlySet<Screen> = AVAILABLE_SCREENS,
  menu: readonly ConsoleMenuEntry[] = CONSOLE_MENU,
  /** Developer-portal-only mode: non-administrators see only the entries open to them. */
  devMode = false,
): ConsoleMenuEntry[] {
  const limited = devMode && !isAdmin(user);
  return menu
    .map((entry, index) => ({ entry, index }))
    .filter(
      ({ entry }) =>
        available.has(entry.screen) &&
        hasAnyPermission(user, entry.anyOf) &&
        (!limited || entry.devMode === true),
    )
    .sort((a, b) => a.entry.order - b.entry.order || a.index - b.index)
    .map(({ entry }) => entry);
}
