import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CatalogueDeps, ErrorNotice } from './error-catalogue';
import {
  OUTDATED_TOAST_DURATION,
  SESSION_EXPIRED_DELAY,
  createErrorCatalogue,
  isRedirectablePath,
} from './error-catalogue';
import type { RequestOptions } from './http-error';
import { HttpError } from './http-error';

function error(
  status: number,
  data: unknown,
  options: RequestOptions & { hadAuthorization?: boolean } = {},
  reason?: HttpError['reason'],
) {
  return new HttpError(
    status,
    data,
    status === 500 ? 'Internal Server Error' : '',
    { method: 'GET', url: 'http://api/x', hadAuthorization: false, ...options },
    reason ?? (status > 0 ? 'status' : 'network'),
  );
}

function setup(pathname = '/user', search = '') {
  const notices: ErrorNotice[] = [];
  const scheduled: { run: () => void; ms: number }[] = [];
  const deps = {
    notify: vi.fn((n: ErrorNotice) => void notices.push(n)),
    currentLocation: () => ({ pathname, search }),
    goTo: vi.fn(),
    dropUser: vi.fn(),
    showUnavailable: vi.fn(),
    reloadState: vi.fn(),
    schedule: (run: () => void, ms: number) => void scheduled.push({ run, ms }),
  } satisfies CatalogueDeps;
  return { catalogue: createErrorCatalogue(deps), deps, notices, scheduled };
}

describe('error catalogue', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup();
  });

  describe('401', () => {
    it('with an Authorization header: Wrong user or password, nothing else', () => {
      env.catalogue.handle(error(401, { message: 'Wrong user or password' }, { hadAuthorization: true }));
      expect(env.notices).toEqual([{ key: 'errors.wrongCredentials', status: 401 }]);
      expect(env.scheduled).toEqual([]);
      expect(env.deps.goTo).not.toHaveBeenCalled();
    });

    it('otherwise: Session expired, then after 2000 ms the user is dropped and sent to login with the path', () => {
      env = setup('/user', '?tab=1');
      env.catalogue.handle(error(401, { message: 'You must be authenticated' }));
      expect(env.notices).toEqual([{ key: 'errors.sessionExpired', status: 401 }]);
      expect(env.scheduled.map((s) => s.ms)).toEqual([SESSION_EXPIRED_DELAY]);
      expect(SESSION_EXPIRED_DELAY).toBe(2000);
      expect(env.deps.dropUser).not.toHaveBeenCalled();
      env.scheduled[0]!.run();
      expect(env.deps.dropUser).toHaveBeenCalledOnce();
      expect(env.deps.goTo).toHaveBeenCalledWith('/login?redirectUri=%2Fuser%3Ftab%3D1');
      expect(env.catalogue.sessionExpired).toBe(true);
    });

    it('applies to silent calls too on a page that needs the session', () => {
      env = setup('/management');
      env.catalogue.handle(error(401, {}, { silent: true }));
      expect(env.notices).toHaveLength(1);
      expect(env.scheduled).toHaveLength(1);
    });

    it('announces one redirect for calls failing together', () => {
      env.catalogue.handle(error(401, {}));
      env.catalogue.handle(error(401, {}));
      expect(env.notices).toHaveLength(1);
      expect(env.scheduled).toHaveLength(1);
    });

    for (const path of ['', '/', '/login', '/registration/confirm/abc']) {
      it(`on "${path}" a silent call shows nothing`, () => {
        env = setup(path);
        env.catalogue.handle(error(401, {}, { silent: true }));
        expect(env.notices).toEqual([]);
        expect(env.scheduled).toEqual([]);
      });
    }

    it('on portal home a call that is not silent still expires the session, once', () => {
      env = setup('/');
      env.catalogue.handle(error(401, {}));
      expect(env.notices).toHaveLength(1);
      env.scheduled[0]!.run();
      expect(env.deps.goTo).toHaveBeenCalledWith('/login');
      env.catalogue.handle(error(401, {}));
      expect(env.notices).toHaveLength(1);
    });

    it('after a sign-out, late 401s are no expiry (no toast, no login) until the next sign-in', () => {
      env = setup('/');
      env.catalogue.signedOut();
      env.catalogue.handle(error(401, {}));
      expect(env.notices).toEqual([]);
      expect(env.scheduled).toEqual([]);
      env.catalogue.handle(error(401, { message: 'Wrong user or password' }, { hadAuthorization: true }));
      expect(env.notices).toHaveLength(1);
      env.catalogue.resetSession();
      env.catalogue.handle(error(401, {}));
      expect(env.notices).toHaveLength(2);
      expect(env.scheduled).toHaveLength(1);
    });

    it('forced expiry (the current-user call) marks the session expired and drops the user without a word', () => {
      env = setup('/');
      env.catalogue.handle(error(401, {}, { silent: true, forceSessionExpired: true }));
      expect(env.notices).toEqual([]);
      expect(env.deps.dropUser).toHaveBeenCalledOnce();
      expect(env.catalogue.sessionExpired).toBe(true);
      env.catalogue.handle(error(401, {}));
      expect(env.notices).toEqual([]);
      env.catalogue.resetSession();
      env.catalogue.handle(error(401, {}));
      expect(env.notices).toHaveLength(1);
    });
  });

  it('403: the server message, and the user goes to portal home', () => {
    env.catalogue.handle(error(403, { message: 'You do not have the permission portal-settings-u' }));
    expect(env.notices).toEqual([{ text: 'You do not have the permission portal-settings-u', status: 403 }]);
    expect(env.deps.goTo).toHaveBeenCalledWith('/');
  });

  it('412: outdated, with a Refresh action for 10 s that reloads the state', () => {
    env.catalogue.handle(error(412, { message: 'stale' }));
    expect(env.notices).toHaveLength(1);
    const notice = env.notices[0]!;
    expect(notice.key).toBe('errors.outdated');
    expect(notice.status).toBe(412);
    expect(notice.autoClose).toBe(OUTDATED_TOAST_DURATION);
    expect(OUTDATED_TOAST_DURATION).toBe(10_000);
    expect(notice.action?.key).toBe('errors.refresh');
    notice.action!.run();
    expect(env.deps.reloadState).toHaveBeenCalledOnce();
  });

  it('500: the server message, or Unexpected error', () => {
    env.catalogue.handle(error(500, { message: 'Database down' }));
    env.catalogue.handle(error(500, undefined));
    expect(env.notices).toEqual([
      { text: 'Database down', status: 500 },
      { key: 'errors.unexpected', status: 500 },
    ]);
  });

  it('503: the server message replaces the page, or Server unavailable', () => {
    env.catalogue.handle(error(503, { message: 'Maintenance until noon' }));
    env.catalogue.handle(error(503, undefined));
    expect(env.deps.showUnavailable).toHaveBeenNthCalledWith(1, 'Maintenance until noon');
    expect(env.deps.showUnavailable).toHaveBeenNthCalledWith(2, undefined);
    expect(env.notices).toEqual([]);
  });

  it('network failure: Server unreachable without the error theme; try-it: the remote service; silent: nothing', () => {
    env.catalogue.handle(error(0, undefined));
    env.catalogue.handle(error(0, undefined, { tryIt: true }));
    env.catalogue.handle(error(0, undefined, { silent: true }));
    env.catalogue.handle(error(0, undefined, {}, 'timeout'));
    expect(env.notices).toEqual([
      { key: 'errors.serverUnreachable' },
      { key: 'errors.remoteServiceUnreachable' },
      { key: 'errors.serverUnreachable' },
    ]);
  });

  it('a cancelled call shows nothing', () => {
    env.catalogue.handle(error(0, undefined, {}, 'abort'));
    expect(env.notices).toEqual([]);
  });

  it('other errors: the extracted text with the status; silent calls show nothing', () => {
    env.catalogue.handle(error(400, [{ message: 'first problem' }, { message: 'second' }]));
    env.catalogue.handle(
      error(429, { message: 'Too many failed sign-in attempts, try again in 60 seconds' }),
    );
    env.catalogue.handle(error(404, { message: 'not here' }, { silent: true }));
    expect(env.notices).toEqual([
      { text: 'first problem', status: 400 },
      { text: 'Too many failed sign-in attempts, try again in 60 seconds', status: 429 },
    ]);
  });

  it('knows which paths send to login on expiry', () => {
    expect(isRedirectablePath('/management')).toBe(true);
    expect(isRedirectablePath('/registration')).toBe(true);
    expect(isRedirectablePath('/registration/confirm/x')).toBe(false);
    expect(isRedirectablePath('/login')).toBe(false);
    expect(isRedirectablePath('/')).toBe(false);
  });
});
