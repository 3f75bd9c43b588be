import { appUrl } from '../config/config';
import { HttpClient } from './client';
import type { CatalogueDeps } from './error-catalogue';
import { createErrorCatalogue } from './error-catalogue';

/** The HTTP client of the whole app; start-up sets its base URL and the error catalogue. */
export const http = new HttpClient({ appUrl });

export { HttpClient, basicAuthorization } from './client';
export type { HttpResponse } from './client';
export {
  DEFAULT_TIMEOUT,
  LONG_TIMEOUT,
  HttpError,
  analyticsTimeout,
  errorText,
  isHttpError,
} from './http-error';
export type { RequestOptions } from './http-error';

let catalogueDeps: CatalogueDeps | undefined;

/** The error catalogue of the app; its collaborators (router, toasts, session) are set at start-up. */
export const errorCatalogue = createErrorCatalogue({
  notify: (notice) => catalogueDeps?.notify(notice),
  currentLocation: () => catalogueDeps?.currentLocation() ?? { pathname: '/', search: '' },
  goTo: (path) => catalogueDeps?.goTo(path),
  dropUser: () => catalogueDeps?.dropUser(),
  showUnavailable: (text) => catalogueDeps?.showUnavailable(text),
  reloadState: () => catalogueDeps?.reloadState(),
});

/** Start-up: points the client at the management API and plugs in the error catalogue. */
export function configureHttp(baseURL: string, deps: CatalogueDeps): void {
  catalogueDeps = deps;
  http.configure({ baseURL, onError: (error) => errorCatalogue.handle(error) });
}

export { CatalogueMessages, isRedirectablePath } from './error-catalogue';
export type { CatalogueDeps, ErrorNotice, CatalogueMessageKey } from './error-catalogue';
