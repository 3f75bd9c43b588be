import type { ComponentType } from 'react';
import type { TranslationKey } from '../../../shared/i18n/keys';
import type { CurrentUser } from '../../../shared/session/permissions';
import { hasAnyPermission } from '../../../shared/session/permissions';

/** A screen loaded on first use: `() => import('...').then((m) => m.ViewsPage)`. */
export type LazyPage = () => Promise<ComponentType>;

export type SettingsGroup = 'portal' | 'gateway' | 'userManagement' | 'notifications';

/** A further route of a settings screen (a form), relative to `/management/settings/`. */
export interface SettingsSubRoute {
  path: string;
  page: LazyPage;
  /** Each entry: one of these permissions is needed (defaults to the entry's own). */
  permissions?: string[][];
}

/**
 * One entry of the settings menu (console-applications-and-settings.md 2.3). An entry without `page`
 * is a screen that does not exist yet: it is neither shown nor routed. Each settings screen adds its
 * `page` (and its forms in `routes`) here; nothing else of the shell changes.
 */
export interface SettingsEntry {
  group: SettingsGroup;
  /** Relative to `/management/settings/`. */
  path: string;
  label: TranslationKey;
  /** One of them is needed to see the entry and open its screen. */
  anyOf: readonly string[];
  page?: LazyPage;
  routes?: readonly SettingsSubRoute[];
}

export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  'portal',
  'gateway',
  'userManagement',
  'notifications',
];

export const SETTINGS_GROUP_LABELS: Record<SettingsGroup, TranslationKey> = {
  portal: 'settings.sections.portal',
  gateway: 'settings.sections.gateway',
  userManagement: 'settings.sections.userManagement',
  notifications: 'settings.sections.notifications',
};

const identities = () => import('../../../features/settings-identities/settings-identities-screens');
const clientRegistration = () =>
  import('../../../features/settings-client-registration/settings-client-registration-screens');

const dictionaries = () => import('../../../features/dictionaries/settings-dictionaries-screens');

const portalSettings = () => import('../../../features/settings-portal/settings-portal-screens');

const portalDocs = () => import('../../../features/pages/portal-page-screens');
const views = () => import('../../../features/settings-platform/settings-views-screens');
const tags = () => import('../../../features/settings-platform/settings-tags-screens');
const catalogue = () => import('../../../features/settings-platform/settings-catalogue-screens');

const users = () => import('../../../features/settings-users/settings-users-screens');
const roles = () => import('../../../features/settings-roles/settings-roles-screens');
const groups = () => import('../../../features/groups/settings-groups-screens');
const notificationSettings = () =>
  import('../../../features/notification-settings/notification-settings-screens');

/** The settings menu, in display order within each group. */
export const SETTINGS_MENU: readonly SettingsEntry[] = [
  {
    group: 'portal',
    path: 'analytics',
    label: 'settings.menu.analytics',
    anyOf: ['portal-settings-r'],
    page: async () => (await portalSettings()).AnalyticsSettingsPage,
  },
  {
    group: 'portal',
    path: 'apiportalheader',
    label: 'settings.menu.apiPortalHeaders',
    anyOf: ['portal-api_header-r'],
    page: async () => (await catalogue()).ApiHeadersPage,
  },
  {
    group: 'portal',
    path: 'identities',
    label: 'settings.menu.authentication',
    anyOf: ['portal-identity_provider-r'],
    page: async () => (await identities()).IdentitiesListPage,
    routes: [
      {
        path: 'identities/new',
        page: async () => (await identities()).IdentityPage,
        permissions: [['portal-identity_provider-c']],
      },
      { path: 'identities/:identityId', page: async () => (await identities()).IdentityPage },
    ],
  },
  {
    group: 'portal',
    path: 'client-registration',
    label: 'settings.menu.clientRegistration',
    anyOf: ['portal-client_registration_provider-r'],
    page: async () => (await clientRegistration()).ClientRegistrationListPage,
    routes: [
      {
        path: 'client-registration/new',
        page: async () => (await clientRegistration()).ClientRegistrationPage,
        permissions: [['portal-client_registration_provider-c']],
      },
      {
        path: 'client-registration/:providerId',
        page: async () => (await clientRegistration()).ClientRegistrationPage,
      },
    ],
  },
  {
    group: 'portal',
    path: 'documentation',
    label: 'settings.menu.documentation',
    anyOf: ['portal-documentation-r'],
    page: async () => (await portalDocs()).PortalPagesListPage,
    routes: [
      {
        path: 'documentation/new',
        page: async () => (await portalDocs()).PortalPageEditPage,
        permissions: [['portal-documentation-c']],
      },
      {
        path: 'documentation/import',
        page: async () => (await portalDocs()).PortalPagesImportPage,
        permissions: [['portal-documentation-c']],
      },
      { path: 'documentation/:pageId', page: async () => (await portalDocs()).PortalPageViewPage },
      { path: 'documentation/:pageId/edit', page: async () => (await portalDocs()).PortalPageEditPage },
    ],
  },
  {
    group: 'portal',
    path: 'metadata',
    label: 'settings.menu.metadata',
    anyOf: ['portal-metadata-r'],
    page: async () => (await catalogue()).MetadataPage,
  },
  {
    group: 'portal',
    path: 'portal',
    label: 'settings.menu.portal',
    anyOf: ['portal-settings-r'],
    page: async () => (await portalSettings()).PortalSettingsPage,
  },
  {
    group: 'portal',
    path: 'top-apis',
    label: 'settings.menu.topApis',
    anyOf: ['portal-top_apis-r'],
    page: async () => (await catalogue()).TopApisPage,
  },
  {
    group: 'portal',
    path: 'views',
    label: 'settings.menu.views',
    anyOf: ['portal-view-r'],
    page: async () => (await views()).ViewsPage,
    routes: [
      { path: 'views/new', page: async () => (await views()).ViewPage, permissions: [['portal-view-c']] },
      { path: 'views/:viewId', page: async () => (await views()).ViewPage },
    ],
  },
  {
    group: 'gateway',
    path: 'api_logging',
    label: 'settings.menu.apiLogging',
    anyOf: ['portal-settings-r'],
    page: async () => (await portalSettings()).ApiLoggingSettingsPage,
  },
  {
    group: 'gateway',
    path: 'dictionaries',
    label: 'settings.menu.dictionaries',
    anyOf: ['management-dictionary-r'],
    page: async () => (await dictionaries()).DictionariesPage,
    routes: [
      {
        path: 'dictionaries/new',
        page: async () => (await dictionaries()).DictionaryPage,
        permissions: [['management-dictionary-c']],
      },
      { path: 'dictionaries/:dictionaryId', page: async () => (await dictionaries()).DictionaryPage },
    ],
  },
  {
    group: 'gateway',
    path: 'tags',
    label: 'settings.menu.tags',
    anyOf: ['management-tag-r'],
    page: async () => (await tags()).TagsPage,
    routes: [
      {
        path: 'tags/entrypoint/new',
        page: async () => (await tags()).EntrypointPage,
        permissions: [['management-entrypoint-c']],
      },
      { path: 'tags/entrypoint/:entrypointId', page: async () => (await tags()).EntrypointPage },
      { path: 'tags/:tagId', page: async () => (await tags()).TagPage },
    ],
  },
  {
    group: 'gateway',
    path: 'tenants',
    label: 'settings.menu.tenants',
    anyOf: ['management-tenant-r'],
    page: async () => (await catalogue()).TenantsPage,
  },
  {
    group: 'userManagement',
    path: 'users',
    label: 'settings.menu.users',
    anyOf: ['management-user-r'],
    page: async () => (await users()).UsersPage,
    routes: [
      {
        path: 'users/new',
        page: async () => (await users()).UserNewPage,
        permissions: [['management-user-c']],
      },
      { path: 'users/:userId', page: async () => (await users()).UserPage },
    ],
  },
  {
    group: 'userManagement',
    path: 'groups',
    label: 'settings.menu.groups',
    anyOf: ['management-group-r'],
    page: async () => (await groups()).GroupsPage,
    routes: [
      {
        path: 'groups/new',
        page: async () => (await groups()).GroupPage,
        permissions: [['management-group-c']],
      },
      { path: 'groups/:groupId', page: async () => (await groups()).GroupPage },
    ],
  },
  {
    group: 'userManagement',
    path: 'roles',
    label: 'settings.menu.roles',
    anyOf: ['management-role-r'],
    page: async () => (await roles()).RolesPage,
    routes: [
      {
        path: 'role/:roleScope/new',
        page: async () => (await roles()).RolePage,
        permissions: [['management-role-c']],
      },
      { path: 'role/:roleScope/:role', page: async () => (await roles()).RolePage },
      { path: 'role/:roleScope/:role/members', page: async () => (await roles()).RoleMembersPage },
    ],
  },
  {
    group: 'notifications',
    path: 'notifications',
    label: 'settings.menu.notifications',
    anyOf: ['management-notification-r', 'management-alert-r'],
    page: async () => (await notificationSettings()).PlatformNotificationsPage,
  },
];

/** The entries a user sees: with a screen and one of its permissions, in menu order. */
export function visibleSettings(
  user: CurrentUser | null,
  menu: readonly SettingsEntry[] = SETTINGS_MENU,
): SettingsEntry[] {
  return menu.filter((entry) => entry.page && hasAnyPermission(user, entry.anyOf));
}

/** Never held: the console menu's Settings entry while no settings screen exists. */
export const NO_SETTINGS_SCREEN = 'portal-settings-none';

/** Every permission that opens one of the existing settings screens (the console menu's entry). */
export function settingsPermissions(menu: readonly SettingsEntry[] = SETTINGS_MENU): string[] {
  const permissions = [...new Set(menu.filter((entry) => entry.page).flatMap((entry) => entry.anyOf))];
  return permissions.length > 0 ? permissions : [NO_SETTINGS_SCREEN];
}
