import { DomainError, ValidationError, notFound } from '@portico/model';

/** The refusals of the API features, each with its status and a message a user can act on. */

export const apiNotFound = (id: string) => notFound('Api', id);

export const CONTEXT_PATH_TAKEN = (path: string) => `The path [${path}] is already covered by an other API.`;
export const contextPathTaken = (path: string, field = 'context_path') =>
  new ValidationError(field, CONTEXT_PATH_TAKEN(path));

export const API_ALREADY_STARTED = 'The API is already started.';
export const API_ALREADY_STOPPED = 'The API is already stopped.';
export const apiAlreadyInState = (state: 'STARTED' | 'STOPPED') =>
  new DomainError(
    400,
    state === 'STARTED' ? API_ALREADY_STARTED : API_ALREADY_STOPPED,
    'API_STATE_UNCHANGED',
  );

export const API_RUNNING = 'The API is started: stop it before deleting it.';
export const API_ACTIVE_PLANS = 'The API has published or deprecated plans: close them before deleting it.';
export const API_ACTIVE_SUBSCRIPTIONS =
  'The API has accepted, pending or paused subscriptions: close them before deleting it.';
export const apiNotDeletable = (message: string) => new DomainError(400, message, 'API_NOT_DELETABLE');

export const CONTEXT_PATH_OWNER_ONLY = 'Only the primary owner of the API may change its context path.';
export const contextPathOwnerOnly = () =>
  new DomainError(403, CONTEXT_PATH_OWNER_ONLY, 'FORBIDDEN', { permission: 'api-gateway_definition-u' });

export {
  PRIMARY_OWNER_UNCHANGEABLE,
  PRIMARY_OWNER_UNREMOVABLE,
  SYSTEM_ROLE_REFUSED,
} from '../members/members.service.js';
export const ALREADY_PRIMARY_OWNER = 'This user is already the primary owner of the API.';
export const TRANSFER_OWNER_ONLY =
  'Only the primary owner of the API or an administrator may transfer its ownership.';

export const METADATA_EXISTS = (key: string) => `A metadata with key [${key}] already exists on this API.`;
export const metadataExists = (key: string) => new ValidationError('key', METADATA_EXISTS(key));
export const metadataNotFound = (key: string) => notFound('Metadata', key);

export const IMPORT_URL_SCHEME = 'Only http and https URLs can be imported.';
export const IMPORT_TOO_LARGE = (bytes: number) =>
  `The file is larger than the import limit of ${bytes} bytes.`;
/** The same for every failure (refused address, closed port, timeout, error status): it tells no port apart. */
export { OUTBOUND_FETCH_FAILED as IMPORT_FETCH_FAILED } from '@portico/outbound';
export const importRefused = (message: string, field = 'payload') => new ValidationError(field, message);
export const importTooLarge = (bytes: number) =>
  new DomainError(413, IMPORT_TOO_LARGE(bytes), 'IMPORT_TOO_LARGE', { field: 'payload' });
