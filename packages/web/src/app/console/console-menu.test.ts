import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../shared/session/permissions';
import type { Screen } from '../screens';
import { CONSOLE_MENU, SETTINGS_PERMISSIONS, visibleMenu } from './console-menu';

/** A permission of an existing settings screen. */
const SETTINGS = SETTINGS_PERMISSIONS[0]!;

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

const all = new Set<Screen>(CONSOLE_MENU.map((entry) => entry.screen));
const labels = (entries: { label: string }[]) =>
  entries.map((entry) => entry.label.replace('console.menu.', ''));

describe('console side menu', () => {
  it('lists the entries in menu order: APIs 10, Applications 20, Gateways 30, Dashboard 40, then order 50', () => {
    const admin = user([
      'management-instance-r',
      'management-platform-r',
      'management-audit-r',
      'management-message-c',
      SETTINGS,
    ]);
    expect(labels(visibleMenu(admin, all))).toEqual([
      'apis',
      'applications',
      'gateways',
      'dashboard',
      'audit',
      'messages',
      'settings',
    ]);
  });

  it('hides the entries whose permission the user lacks', () => {
    expect(labels(visibleMenu(user([SETTINGS]), all))).toEqual(['apis', 'applications', 'settings']);
    expect(labels(visibleMenu(null, all))).toEqual(['apis', 'applications']);
  });

  it('hides the entries whose screen does not exist yet', () => {
    const admin = user(['management-instance-r', 'management-audit-r']);
    expect(labels(visibleMenu(admin, new Set<Screen>(['management.apis.list', 'management.audit'])))).toEqual(
      ['apis', 'audit'],
    );
  });

  it('developer-portal-only mode: non-administrators keep Applications only, administrators everything', () => {
    const publisher = user(['management-api-c']);
    expect(labels(visibleMenu(publisher, all, CONSOLE_MENU, true))).toEqual(['applications']);
    const admin = user(['management-instance-r', 'management-platform-r']);
    expect(labels(visibleMenu(admin, all, CONSOLE_MENU, true))).toEqual(
      labels(visibleMenu(admin, all, CONSOLE_MENU, false)),
    );
  });
});
