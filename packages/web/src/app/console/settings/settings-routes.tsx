import type { RouteObject } from 'react-router';
import type { RouteAccess } from '../../../shared/session/access';
import type { LazyPage } from './settings-menu';
import { SETTINGS_MENU } from './settings-menu';

const access = (handle: RouteAccess): RouteAccess => handle;

const lazyPage = (page: LazyPage) => async () => ({ Component: await page() });

/**
 * The settings area under `/management/settings` (console-applications-and-settings.md 2.3), built from
 * SETTINGS_MENU: the home redirects to the first entry the user may see; each existing screen and its
 * forms need the entry's permission.
 */
export const settingsRoutes: RouteObject[] = [
  {
    lazy: async () => ({ Component: (await import('./settings-frame')).SettingsFrame }),
    handle: access({ authenticated: true, docPage: 'management-settings' }),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('./settings-frame')).SettingsHome }),
      },
      ...SETTINGS_MENU.filter((entry) => entry.page).flatMap((entry): RouteObject[] => [
        {
          path: entry.path,
          lazy: lazyPage(entry.page!),
          handle: access({ permissions: [[...entry.anyOf]] }),
        },
        ...(entry.routes ?? []).map((route): RouteObject => ({
          path: route.path,
          lazy: lazyPage(route.page),
          handle: access({ permissions: [[...entry.anyOf], ...(route.permissions ?? [])] }),
        })),
      ]),
    ],
  },
];
