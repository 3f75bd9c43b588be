import { describe, expect, it } from 'vitest';
import { isAppPath, loginPath, loginTarget } from './redirects';

describe('after a sign-in', () => {
  it('goes to the redirect URI when there is one', () => {
    expect(loginTarget('/management/audit', '/user')).toBe('/management/audit');
  });
  it('else to the last route', () => {
    expect(loginTarget(null, '/user')).toBe('/user');
  });
  it('unless the last route was login, logout or confirm', () => {
    expect(loginTarget(null, '/login?redirectUri=%2F')).toBe('/');
    expect(loginTarget(null, '/logout')).toBe('/');
    expect(loginTarget(null, '/registration/confirm/abc')).toBe('/');
  });
  it('else to portal home', () => {
    expect(loginTarget(undefined, undefined)).toBe('/');
  });
  it('never leaves the app (no open redirect)', () => {
    expect(loginTarget('https://evil.example/', undefined)).toBe('/');
    expect(loginTarget('//evil.example/', undefined)).toBe('/');
    expect(isAppPath('/\\evil.example')).toBe(false);
  });
});

describe('the login path', () => {
  it('carries the page to come back to', () => {
    expect(loginPath('/management?q=a')).toBe('/login?redirectUri=%2Fmanagement%3Fq%3Da');
  });
  it('is plain from portal home and from the account pages', () => {
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('/login')).toBe('/login');
    expect(loginPath('/registration/confirm/x')).toBe('/login');
  });
});
