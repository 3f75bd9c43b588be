/**
 * Domain errors: every refusal a service can give, with its HTTP status and a message a user can act on.
 * The management API turns them into `{ "message": ..., "http_status": ... }`.
 */
export class DomainError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly code: string,
    readonly parameters: Record<string, string> = {},
  ) {
    super(message);
    this.name = code;
  }
}

export class ValidationError extends DomainError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(400, message, 'VALIDATION_ERROR', { field });
  }
}

/** 400 naming the field: `Invalid value for field 'name': Name is required.` */
export const invalidField = (field: string, reason: string) =>
  new ValidationError(field, `Invalid value for field '${field}': ${reason}`);

export const notFound = (type: string, id: string) =>
  new DomainError(404, `${type} [${id}] can not be found.`, `${type.toUpperCase()}_NOT_FOUND`, { id });

export const WRONG_CREDENTIALS = 'Wrong user or password';
export const wrongCredentials = () => new DomainError(401, WRONG_CREDENTIALS, 'WRONG_CREDENTIALS');
export const unauthenticated = () => new DomainError(401, 'You must be authenticated', 'UNAUTHENTICATED');
export const forbidden = (permission?: string) =>
  new DomainError(
    403,
    permission ? `You do not have the permission ${permission}` : 'You are not allowed to do this',
    'FORBIDDEN',
    permission ? { permission } : {},
  );
export const tooManyLoginAttempts = (seconds: number) =>
  new DomainError(
    429,
    `Too many failed sign-in attempts, try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
    'TOO_MANY_LOGIN_ATTEMPTS',
    { retryAfter: String(seconds) },
  );
export const staleEtag = () =>
  new DomainError(
    412,
    'The resource was modified by someone else: reload it before saving',
    'PRECONDITION_FAILED',
  );
export const xsrfRejected = () =>
  new DomainError(403, 'Missing or wrong X-Xsrf-Token header', 'XSRF_TOKEN_INVALID');
export const conflict = (message: string, code = 'CONFLICT') => new DomainError(409, message, code);
export const UNEXPECTED_ERROR = 'Unexpected error';

/** A size for people: `2 MB`, `512 KB`, `100 bytes`. */
export function formatBytes(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
export const requestBodyTooLarge = (limitBytes: number) =>
  new DomainError(
    413,
    `The request body is larger than the limit of ${formatBytes(limitBytes)}`,
    'REQUEST_BODY_TOO_LARGE',
    { limit: String(limitBytes) },
  );
export const jsonTooDeep = (limit: number) =>
  new DomainError(
    400,
    `The JSON body nests objects and arrays deeper than the limit of ${limit} levels`,
    'JSON_TOO_DEEP',
    { limit: String(limit) },
  );
