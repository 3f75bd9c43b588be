/** What a call asks of the HTTP client, besides method, path and body. */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Errors of this call show nothing (background refreshes). */
  silent?: boolean;
  /** Error statuses the calling screen shows itself (a portal page's not-found state): the catalogue is not told. */
  handles?: readonly number[];
  /** A 401 marks the session as expired without any message (the current-user call). */
  forceSessionExpired?: boolean;
  /** A call of the API try-it console: network failures say the remote service is unreachable. */
  tryIt?: boolean;
  /** Milliseconds; default DEFAULT_TIMEOUT. */
  timeout?: number;
  /** Cancels the call (TanStack Query passes its own). */
  signal?: AbortSignal;
  /** Entity tag of an update: the server answers 412 when it is stale. */
  ifMatch?: string;
  responseType?: 'json' | 'text' | 'blob';
  /** `api` (default): relative to the management base URL, with the session cookie; `app`: a file of the web app. */
  target?: 'api' | 'app';
}

/** The request as it was sent, for the error catalogue. */
export interface SentRequest extends RequestOptions {
  method: NonNullable<RequestOptions['method']>;
  url: string;
  /** The call carried an Authorization header (sign-in with credentials). */
  hadAuthorization: boolean;
}

/** Timeouts of the spec (milliseconds). */
export const DEFAULT_TIMEOUT = 10_000;
/** Logs, log export, health calls, page fetch and import. */
export const LONG_TIMEOUT = 30_000;

/** Analytics calls wait the configured `analytics.clientTimeout` (milliseconds), else LONG_TIMEOUT. */
export const analyticsTimeout = (clientTimeout: number | undefined): number =>
  typeof clientTimeout === 'number' && clientTimeout > 0 ? clientTimeout : LONG_TIMEOUT;

/**
 * The text of an error answer: the first element's message if the data is an array, else the message
 * field, else the data when it is a string, else the status text.
 */
export function errorText(data: unknown, statusText: string): string {
  const messageOf = (value: unknown): string | undefined =>
    value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string'
      ? (value as { message: string }).message
      : undefined;
  if (Array.isArray(data)) {
    const first = messageOf(data[0]);
    if (first) return first;
  } else {
    const message = messageOf(data);
    if (message) return message;
    if (typeof data === 'string' && data.trim() !== '') return data;
  }
  return statusText;
}

/** A failed call. `status` is 0 for network failures, time-outs and cancellations. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
    readonly statusText: string,
    readonly request: SentRequest,
    readonly reason: 'status' | 'network' | 'timeout' | 'abort' = 'status',
  ) {
    super(errorText(data, statusText) || `HTTP ${status}`);
    this.name = 'HttpError';
  }

  /** The server's text (empty when there is none). */
  get text(): string {
    return errorText(this.data, this.statusText);
  }
}

export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError;
