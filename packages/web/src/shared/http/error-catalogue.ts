import { errorText, type HttpError } from './http-error';

/** Translation keys of the catalogue's own messages. */
export const CatalogueMessages = {
  wrongCredentials: 'errors.wrongCredentials',
  sessionExpired: 'errors.sessionExpired',
  outdated: 'errors.outdated',
  refresh: 'errors.refresh',
  unexpected: 'errors.unexpected',
  serverUnavailable: 'errors.serverUnavailable',
  serverUnreachable: 'errors.serverUnreachable',
  remoteServiceUnreachable: 'errors.remoteServiceUnreachable',
} as const;

export type CatalogueMessageKey = (typeof CatalogueMessages)[keyof typeof CatalogueMessages];

/** A toast of the catalogue: a translation key of the catalogue or a text of the server. */
export interface ErrorNotice {
  key?: CatalogueMessageKey;
  text?: string;
  /** HTTP status; the error theme is used when there is one. */
  status?: number;
  /** Milliseconds the toast stays (the 412 one stays 10 s). */
  autoClose?: number;
  action?: { key: CatalogueMessageKey; run: () => void };
}

export interface CatalogueDeps {
  notify(notice: ErrorNotice): void;
  /** Path and query of the current page. */
  currentLocation(): { pathname: string; search: string };
  goTo(path: string): void;
  /** Clears the user data: the app behaves as signed out. */
  dropUser(): void;
  /** 503: the text replaces the page body (undefined: the catalogue's own text). */
  showUnavailable(text: string | undefined): void;
  /** 412's Refresh: reloads the current state. */
  reloadState(): void;
  schedule?(run: () => void, ms: number): void;
}

export const SESSION_EXPIRED_DELAY = 2000;
export const OUTDATED_TOAST_DURATION = 10_000;

/** Paths where an expired session does not send the user to login unless the call asked for it. */
export function isRedirectablePath(pathname: string): boolean {
  return (
    pathname !== '' &&
    pathname !== '/' &&
    pathname !== '/login' &&
    !pathname.startsWith('/registration/confirm')
  );
}

export interface ErrorCatalogue {
  handle(error: HttpError): void;
  /** A sign-in succeeded: 401s count again. */
  resetSession(): void;
  /**
   * The user signs out: calls still under way answer 401 once the session has ended, which is no
   * expiry (no toast, no trip to login) until the next sign-in.
   */
  signedOut(): void;
  readonly sessionExpired: boolean;
}

/** The error catalogue of portal-and-platform.md section 8 and console-apis.md section 8. */
export function createErrorCatalogue(deps: CatalogueDeps): ErrorCatalogue {
  const schedule = deps.schedule ?? ((run, ms) => void setTimeout(run, ms));
  let sessionExpired = false;
  let signedOut = false;
  let redirecting = false;

  const unauthorized = (error: HttpError) => {
    const { request } = error;
    if (request.hadAuthorization) {
      deps.notify({ key: CatalogueMessages.wrongCredentials, status: 401 });
      return;
    }
    if (request.forceSessionExpired) {
      sessionExpired = true;
      deps.dropUser();
      return;
    }
    if (redirecting || signedOut) return;
    const { pathname, search } = deps.currentLocation();
    if (isRedirectablePath(pathname) || (!request.silent && !sessionExpired)) {
      sessionExpired = true;
      redirecting = true;
      deps.notify({ key: CatalogueMessages.sessionExpired, status: 401 });
      schedule(() => {
        redirecting = false;
        deps.dropUser();
        const redirect = isRedirectablePath(pathname)
          ? `?redirectUri=${encodeURIComponent(pathname + search)}`
          : '';
        deps.goTo(`/login${redirect}`);
      }, SESSION_EXPIRED_DELAY);
    }
  };

  return {
    get sessionExpired() {
      return sessionExpired;
    },
    resetSession() {
      sessionExpired = false;
      signedOut = false;
    },
    signedOut() {
      signedOut = true;
    },
    handle(error) {
      const { request, status } = error;
      if (error.reason === 'abort') return;
      if (status <= 0) {
        if (request.silent) return;
        deps.notify({
          key: request.tryIt
            ? CatalogueMessages.remoteServiceUnreachable
            : CatalogueMessages.serverUnreachable,
        });
        return;
      }
      // In try-it mode the answer is the remote API's own: the try-it console shows it.
      if (request.tryIt) return;
      if (status === 401) {
        unauthorized(error);
        return;
      }
      if (request.silent) return;
      // The server's own message; the status text only where the spec falls back to it.
      const text = errorText(error.data, '');
      const orStatusText = (): ErrorNotice =>
        text || error.statusText
          ? { text: text || error.statusText, status }
          : { key: CatalogueMessages.unexpected, status };
      switch (status) {
        case 403:
          deps.notify(orStatusText());
          deps.goTo('/');
          return;
        case 412:
          deps.notify({
            key: CatalogueMessages.outdated,
            status,
            autoClose: OUTDATED_TOAST_DURATION,
            action: { key: CatalogueMessages.refresh, run: deps.reloadState },
          });
          return;
        case 500:
          deps.notify(text ? { text, status } : { key: CatalogueMessages.unexpected, status });
          return;
        case 503:
          deps.showUnavailable(text || undefined);
          return;
        default:
          deps.notify(orStatusText());
      }
    },
  };
}
