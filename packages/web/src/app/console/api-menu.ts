import type { TranslationKey } from '../../shared/i18n/keys';
import type { Screen } from '../screens';
import { AVAILABLE_SCREENS } from '../screens';

/** A section of the API frame's menu. */
export type ApiMenuGroup = 'portal' | 'proxy' | 'design' | 'analytics';

export interface ApiMenuEntry {
  screen: Screen;
  /** Relative to `/management/apis/{apiId}/`. */
  path: string;
  label: TranslationKey;
  group: ApiMenuGroup;
  /** One of these API permissions is needed (console-apis.md section 6); empty for every member. */
  anyOf: readonly string[];
  /** Active only on its own path, not on the pages under it (`proxy`, the proxy details). */
  end?: boolean;
}

/** The API frame's menu (console-apis.md 2.3 and 6): each later screen of an API adds its entry here. */
export const API_MENU: readonly ApiMenuEntry[] = [
  {
    screen: 'management.apis.detail.portal.general',
    path: 'portal',
    label: 'apis.menu.general',
    group: 'portal',
    anyOf: [],
  },
  {
    screen: 'management.apis.detail.portal.plans',
    path: 'plans',
    label: 'apis.menu.plans',
    group: 'portal',
    anyOf: ['api-plan-r'],
  },
  {
    screen: 'management.apis.detail.portal.subscriptions',
    path: 'subscriptions',
    label: 'apis.menu.subscriptions',
    group: 'portal',
    anyOf: ['api-subscription-r'],
  },
  {
    screen: 'management.apis.detail.portal.documentation',
    path: 'documentation',
    label: 'apis.menu.documentation',
    group: 'portal',
    anyOf: ['api-documentation-r'],
  },
  {
    screen: 'management.apis.detail.metadata',
    path: 'metadata',
    label: 'apis.menu.metadata',
    group: 'portal',
    anyOf: ['api-metadata-r'],
  },
  {
    screen: 'management.apis.detail.members',
    path: 'members',
    label: 'apis.menu.members',
    group: 'portal',
    anyOf: ['api-member-r'],
  },
  {
    screen: 'management.apis.detail.groups',
    path: 'groups',
    label: 'apis.menu.groups',
    group: 'portal',
    anyOf: ['api-member-r'],
  },
  {
    screen: 'management.apis.detail.messages',
    path: 'messages',
    label: 'broadcast.menu',
    group: 'portal',
    anyOf: ['api-message-c'],
  },
  {
    screen: 'management.apis.detail.notifications',
    path: 'notifications',
    label: 'notificationSettings.menu',
    group: 'portal',
    anyOf: ['api-notification-r', 'api-alert-r'],
  },
  {
    screen: 'management.apis.detail.proxy.general',
    path: 'proxy',
    label: 'apiProxy.menu.details',
    group: 'proxy',
    anyOf: ['api-definition-r'],
    end: true,
  },
  {
    screen: 'management.apis.detail.proxy.cors',
    path: 'proxy/cors',
    label: 'apiProxy.menu.cors',
    group: 'proxy',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.proxy.deployments',
    path: 'proxy/deployments',
    label: 'apiProxy.menu.deployments',
    group: 'proxy',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.proxy.responsetemplates',
    path: 'proxy/responsetemplates',
    label: 'apiProxy.menu.templates',
    group: 'proxy',
    anyOf: ['api-response_templates-r'],
  },
  {
    screen: 'management.apis.detail.proxy.endpoints',
    path: 'proxy/endpoints',
    label: 'apiProxy.menu.endpoints',
    group: 'proxy',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.proxy.failover',
    path: 'proxy/failover',
    label: 'apiProxy.menu.failover',
    group: 'proxy',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.proxy.healthcheck',
    path: 'proxy/healthcheck',
    label: 'apiHealth.menu',
    group: 'proxy',
    anyOf: ['api-health-r'],
  },
  {
    screen: 'management.apis.detail.analytics.overview',
    path: 'analytics',
    label: 'dashboards.menu.overview',
    group: 'analytics',
    anyOf: ['api-analytics-r'],
  },
  {
    screen: 'management.apis.detail.design.policies',
    path: 'policies',
    label: 'apiDesign.menu.policies',
    group: 'design',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.design.resources',
    path: 'resources',
    label: 'apiDesign.menu.resources',
    group: 'design',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.design.properties',
    path: 'properties',
    label: 'apiDesign.menu.properties',
    group: 'design',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.design.pathMappings',
    path: 'path-mappings',
    label: 'apiDesign.menu.pathMappings',
    group: 'design',
    anyOf: ['api-definition-r'],
  },
  {
    screen: 'management.apis.detail.analytics.logs',
    path: 'logs',
    label: 'logs.menu',
    group: 'analytics',
    anyOf: ['api-log-r'],
  },
  {
    screen: 'management.apis.detail.history',
    path: 'history',
    label: 'apis.menu.history',
    group: 'analytics',
    anyOf: ['api-event-r'],
  },
  {
    screen: 'management.apis.detail.events',
    path: 'events',
    label: 'apis.menu.events',
    group: 'analytics',
    anyOf: ['api-event-r'],
  },
  {
    screen: 'management.apis.detail.audit',
    path: 'audit',
    label: 'apis.menu.audit',
    group: 'analytics',
    anyOf: ['api-audit-r'],
  },
];

/** Pages of an API reached from another page, not from the menu, and what they need. */
export const API_PAGES_OFF_MENU: Readonly<Record<string, readonly string[]>> = {
  transferownership: ['api-member-r'],
  proxy: ['api-definition-r'],
};

/** The entries a member sees: with an existing screen and one of the permissions asked. */
export function visibleApiMenu(
  has: (permissions: readonly string[]) => boolean,
  available: ReadonlySet<Screen> = AVAILABLE_SCREENS,
  menu: readonly ApiMenuEntry[] = API_MENU,
): ApiMenuEntry[] {
  return menu.filter((entry) => available.has(entry.screen) && has(entry.anyOf));
}

/** What the page at `path` (first segment under the API) needs; undefined when nothing is known. */
export function apiPageNeeds(
  path: string,
  menu: readonly ApiMenuEntry[] = API_MENU,
): readonly string[] | undefined {
  return menu.find((entry) => entry.path === path)?.anyOf ?? API_PAGES_OFF_MENU[path];
}
