import type { Application } from '../applications/api/types';
import type { Plan } from '../plans/api/types';

/** OAuth2 and JWT plans need an application with a client id (portal-and-platform.md 5). */
export const needsClientId = (security: Plan['security']): boolean =>
  security === 'OAUTH2' || security === 'JWT';

/** The application's client id: its own (simple application) or its OAuth client's. */
export const clientIdOf = (application: Pick<Application, 'settings'>): string | null =>
  application.settings.app?.client_id || application.settings.oauth?.client_id || null;

/** The subscription request message's limit (portal-and-platform.md 9). */
export const REQUEST_MAX = 150;

const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The call with the key in the gateway's key header, ready to paste in a shell. */
export const curlWithKey = (entrypoint: string, header: string, key: string): string =>
  `curl -X GET ${quoted(entrypoint)} -H ${quoted(`${header}: ${key}`)}`;

/** The call with a bearer token the application obtains from its authorization server. */
export const curlWithToken = (entrypoint: string, token = 'YOUR_ACCESS_TOKEN'): string =>
  `curl -X GET ${quoted(entrypoint)} -H ${quoted(`Authorization: Bearer ${token}`)}`;
