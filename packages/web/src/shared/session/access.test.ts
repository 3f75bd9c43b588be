import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config/config';
import { accessRedirect, mergeAccess } from './access';
import type { CurrentUser } from './permissions';
import { isAdmin } from './permissions';

const user = (permissions: string[] = []): CurrentUser => ({
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  displayName: 'Ada Lovelace',
  source: 'portico',
  roles: [],
  permissions,
});

type Flags = { forceLogin?: boolean; userCreation?: boolean; devMode?: boolean };
const config = ({ forceLogin = false, userCreation = true, devMode = false }: Flags = {}) =>
  ({
    portal: { userCreation: { enabled: userCreation }, devMode: { enabled: devMode } },
    authentication: { forceLogin: { enabled: forceLogin }, localLogin: { enabled: true } },
  }) as unknown as AppConfig;

const portal = { face: 'portal' as const, devMode: true };
const login = mergeAccess([portal, { public: true, anonymousOnly: true }]);
const registration = mergeAccess([portal, { public: true, anonymousOnly: true, userCreation: true }]);
const confirm = mergeAccess([portal, { public: true, userCreation: true }]);
const home = mergeAccess([portal, undefined]);
const profile = mergeAccess([portal, { authenticated: true }]);
const consoleHome = mergeAccess([{ face: 'console' }, { docPage: 'management-home' }]);
const auditScreen = mergeAccess([{ face: 'console' }, { permissions: [['management-audit-r']] }]);

describe('route guards', () => {
  it('let visitors browse the portal', () => {
    expect(accessRedirect(home, null, config(), '/')).toBeNull();
  });

  describe('permission-guarded routes', () => {
    it('send visitors to login with the path to come back to', () => {
      expect(accessRedirect(auditScreen, null, config(), '/management/audit?page=2')).toBe(
        '/login?redirectUri=%2Fmanagement%2Faudit%3Fpage%3D2',
      );
    });
    it('send authenticated users without the permission to the API list', () => {
      expect(accessRedirect(auditScreen, user(['management-api-r']), config(), '/management/audit')).toBe(
        '/management',
      );
    });
    it('let users with the permission in', () => {
      expect(
        accessRedirect(auditScreen, user(['management-audit-r']), config(), '/management/audit'),
      ).toBeNull();
    });
    it('need every level of the route (one permission of each group)', () => {
      const nested = mergeAccess([{ permissions: [['a-x-r']] }, { permissions: [['b-y-r', 'b-z-r']] }]);
      expect(accessRedirect(nested, user(['a-x-r']), config(), '/x')).toBe('/management');
      expect(accessRedirect(nested, user(['a-x-r', 'b-z-r']), config(), '/x')).toBeNull();
    });
  });

  it('send visitors of pages needing a session to login', () => {
    expect(accessRedirect(profile, null, config(), '/user')).toBe('/login?redirectUri=%2Fuser');
    expect(accessRedirect(profile, user(), config(), '/user')).toBeNull();
  });

  describe('forced login', () => {
    const forced = config({ forceLogin: true });
    it('sends visitors to login from every route', () => {
      expect(accessRedirect(home, null, forced, '/')).toBe('/login');
      expect(accessRedirect(consoleHome, null, forced, '/management')).toBe(
        '/login?redirectUri=%2Fmanagement',
      );
    });
    it('except login, registration and confirm', () => {
      expect(accessRedirect(login, null, forced, '/login')).toBeNull();
      expect(accessRedirect(registration, null, forced, '/registration')).toBeNull();
      expect(accessRedirect(confirm, null, forced, '/registration/confirm/t')).toBeNull();
    });
    it('lets signed-in users through', () => {
      expect(accessRedirect(home, user(), forced, '/')).toBeNull();
    });
  });

  it('send signed-in users leaving login and registration to portal home', () => {
    expect(accessRedirect(login, user(), config(), '/login')).toBe('/');
    expect(accessRedirect(registration, user(), config(), '/registration')).toBe('/');
  });

  it('send a user who just signed in where the sign-in goes', () => {
    expect(accessRedirect(login, user(), config(), '/login?redirectUri=%2Fuser', '/user')).toBe('/user');
  });

  it('send registration and confirm to login when user creation is disabled', () => {
    const off = config({ userCreation: false });
    expect(accessRedirect(registration, null, off, '/registration')).toBe('/login');
    expect(accessRedirect(confirm, null, off, '/registration/confirm/t')).toBe('/login');
    expect(accessRedirect(login, null, off, '/login')).toBeNull();
  });

  describe('developer-portal-only mode', () => {
    const devMode = config({ devMode: true });
    const admin = user(['management-instance-r', 'management-api-c']);
    it('keeps non-administrators on the routes flagged for it', () => {
      expect(accessRedirect(home, user(), devMode, '/')).toBeNull();
      expect(accessRedirect(consoleHome, user(['management-api-c']), devMode, '/management')).toBe('/');
      expect(accessRedirect(consoleHome, null, devMode, '/management')).toBe(
        '/login?redirectUri=%2Fmanagement',
      );
    });
    it('lets administrators everywhere', () => {
      expect(isAdmin(admin)).toBe(true);
      expect(accessRedirect(consoleHome, admin, devMode, '/management')).toBeNull();
    });
  });
});
