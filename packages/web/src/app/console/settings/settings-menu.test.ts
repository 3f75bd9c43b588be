import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../../shared/session/permissions';
import type { SettingsEntry } from './settings-menu';
import { SETTINGS_MENU, settingsPermissions, visibleSettings } from './settings-menu';

const user = (permissions: string[]): CurrentUser => ({
  id: 'u',
  username: 'u',
  email: null,
  firstname: null,
  lastname: null,
  displayName: 'u',
  source: 'portico',
  roles: [],
  permissions,
});

const page = async () => () => null;
const menu: SettingsEntry[] = [
  { group: 'portal', path: 'metadata', label: 'settings.menu.metadata', anyOf: ['portal-metadata-r'], page },
  { group: 'portal', path: 'views', label: 'settings.menu.views', anyOf: ['portal-view-r'], page },
  { group: 'gateway', path: 'tags', label: 'settings.menu.tags', anyOf: ['management-tag-r'] },
  { group: 'gateway', path: 'tenants', label: 'settings.menu.tenants', anyOf: ['management-tenant-r'], page },
];

describe('settings menu', () => {
  it('shows only the entries with a screen whose permission the user holds, in menu order', () => {
    const entries = visibleSettings(user(['portal-view-r', 'management-tag-r', 'management-tenant-r']), menu);
    expect(entries.map((e) => e.path)).toEqual(['views', 'tenants']);
  });

  it('shows nothing to a user without settings permissions', () => {
    expect(visibleSettings(user(['management-api-c']), menu)).toEqual([]);
    expect(visibleSettings(null, menu)).toEqual([]);
  });

  it('opens the settings area with the permissions of existing screens only', () => {
    expect(settingsPermissions(menu)).toEqual(['portal-metadata-r', 'portal-view-r', 'management-tenant-r']);
  });

  it('lists the groups of the spec in order: Portal, Gateway, User Management, Notifications', () => {
    const groups = [...new Set(SETTINGS_MENU.map((e) => e.group))];
    expect(groups).toEqual(['portal', 'gateway', 'userManagement', 'notifications']);
    expect(SETTINGS_MENU.filter((e) => e.group === 'portal').map((e) => e.path)).toEqual([
      'analytics',
      'apiportalheader',
      'identities',
      'client-registration',
      'documentation',
      'metadata',
      'portal',
      'top-apis',
      'views',
    ]);
  });
});

describe('settings entry of the console menu', () => {
  it('is shown to nobody while no settings screen exists', () => {
    const none = menu.map(({ page: _page, ...entry }) => entry);
    expect(settingsPermissions(none)).toEqual(['portal-settings-none']);
  });
});
