import type { RequestOptions, SentRequest } from './http-error';
import { DEFAULT_TIMEOUT, HttpError } from './http-error';

export interface HttpResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

export interface HttpClientOptions {
  baseURL?: string;
  /** Resolves paths of the web app itself (`target: 'app'`). */
  appUrl?: (path: string) => string;
  fetch?: typeof fetch;
  /** The error catalogue: called for every failed call except cancellations. */
  onError?: (error: HttpError) => void;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const XSRF_HEADER = 'X-Xsrf-Token';

/** `Basic` authorization header value of a sign-in (UTF-8 user names and passwords). */
export function basicAuthorization(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/**
 * The one HTTP client of the web app. Calls the management API with the session cookie
 * (`credentials: 'include'`), keeps the latest `X-Xsrf-Token` the server handed out and sends it back
 * on writes, applies the time-outs, and hands every failure to the error catalogue before rejecting.
 */
export class HttpClient {
  private baseURL: string;
  private xsrfToken: string | undefined;
  private onError: ((error: HttpError) => void) | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly appUrl: (path: string) => string;

  constructor(options: HttpClientOptions = {}) {
    this.baseURL = options.baseURL ?? '';
    this.onError = options.onError;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.appUrl = options.appUrl ?? ((path) => `/${path.replace(/^\.?\//, '')}`);
  }

  configure(options: { baseURL?: string; onError?: (error: HttpError) => void }): void {
    if (options.baseURL !== undefined) this.baseURL = options.baseURL;
    if (options.onError !== undefined) this.onError = options.onError;
  }

  get managementBaseURL(): string {
    return this.baseURL;
  }

  /** Forgets the XSRF token (logout). */
  resetSession(): void {
    this.xsrfToken = undefined;
  }

  /** Absolute URL of a management API path (for `<img src>` of avatars). */
  url(path: string, query?: RequestOptions['query']): string {
    const url = /^https?:\/\//.test(path) ? path : `${this.baseURL}${path.replace(/^\//, '')}`;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) params.set(key, String(value));
    }
    const search = params.toString();
    return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
  }

  async request<T>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const method = options.method ?? 'GET';
    const target = options.target ?? 'api';
    const url = target === 'app' ? this.appUrl(path) : this.url(path, options.query);
    const headers = new Headers({ Accept: 'application/json, text/plain, */*' });
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string' || options.body instanceof FormData) body = options.body;
      else {
        body = JSON.stringify(options.body);
        headers.set('Content-Type', 'application/json');
      }
    }
    if (options.ifMatch) headers.set('If-Match', options.ifMatch);
    if (target === 'api' && WRITE_METHODS.has(method) && this.xsrfToken)
      headers.set(XSRF_HEADER, this.xsrfToken);
    const sent: SentRequest = { ...options, method, url, hadAuthorization: headers.has('Authorization') };

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeout ?? DEFAULT_TIMEOUT);
    const cancel = () => controller.abort();
    if (options.signal?.aborted) controller.abort();
    options.signal?.addEventListener('abort', cancel);

    try {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method,
          headers,
          body,
          credentials: target === 'api' ? 'include' : 'same-origin',
          signal: controller.signal,
        });
      } catch {
        throw new HttpError(
          0,
          undefined,
          '',
          sent,
          timedOut ? 'timeout' : controller.signal.aborted ? 'abort' : 'network',
        );
      }
      const xsrf = response.headers.get(XSRF_HEADER);
      if (xsrf && target === 'api') this.xsrfToken = xsrf;
      const data = await readBody(response, options.responseType).catch(() => undefined);
      if (!response.ok) throw new HttpError(response.status, data, response.statusText, sent);
      return { data: data as T, status: response.status, headers: response.headers };
    } catch (error) {
      if (error instanceof HttpError && error.reason !== 'abort' && !options.handles?.includes(error.status))
        this.onError?.(error);
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', cancel);
    }
  }

  async get<T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
    return (await this.request<T>(path, { ...options, method: 'GET' })).data;
  }

  async post<T>(
    path: string,
    body?: unknown,
    options: Omit<RequestOptions, 'method' | 'body'> = {},
  ): Promise<T> {
    return (await this.request<T>(path, { ...options, method: 'POST', body })).data;
  }

  async put<T>(
    path: string,
    body?: unknown,
    options: Omit<RequestOptions, 'method' | 'body'> = {},
  ): Promise<T> {
    return (await this.request<T>(path, { ...options, method: 'PUT', body })).data;
  }

  async patch<T>(
    path: string,
    body?: unknown,
    options: Omit<RequestOptions, 'method' | 'body'> = {},
  ): Promise<T> {
    return (await this.request<T>(path, { ...options, method: 'PATCH', body })).data;
  }

  async delete<T = void>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
    return (await this.request<T>(path, { ...options, method: 'DELETE' })).data;
  }
}

async function readBody(response: Response, type: RequestOptions['responseType']): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  if (type === 'blob') return response.blob();
  const text = await response.text();
  if (type === 'text') return text;
  const contentType = response.headers.get('Content-Type') ?? '';
  if (text === '') return undefined;
  if (contentType.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
