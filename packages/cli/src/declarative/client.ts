/** A client of the management REST API: the base URL and the credentials of one operator. */

export interface Credentials {
  token?: string;
  username?: string;
  password?: string;
}

/** A call the server refused: its status and message. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly call: string,
    message: string,
  ) {
    super(`${call} answered ${status}: ${message}`);
  }
}

export class ManagementClient {
  private readonly base: string;
  private authorization: string | undefined;
  private readonly credentials: Credentials;

  constructor(url: string, credentials: Credentials) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`--url: "${url}" is not a URL (e.g. http://localhost:8083/management)`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Error('--url: the management API is reached over http or https');
    const trimmed = parsed.href.replace(/\/+$/, '');
    this.base = trimmed.endsWith('/management') ? trimmed : `${trimmed}/management`;
    this.credentials = credentials;
    if (credentials.token) this.authorization = `Bearer ${credentials.token}`;
  }

  /**
   * Checks the credentials before anything else: Basic ones are exchanged once for a session token
   * (`POST user/login`), a token must name a signed-in user (`GET user`).
   */
  async signIn(): Promise<void> {
    const { username, password, token } = this.credentials;
    if (!token && username !== undefined) {
      this.authorization = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`;
      const session = await this.request<{ token: string }>('POST', '/user/login', {});
      this.authorization = `Bearer ${session.token}`;
    }
    try {
      await this.request('GET', '/user');
    } catch (error) {
      if (error instanceof ApiCallError && error.status === 401)
        throw new Error('the management API refused the token (expired or wrong): sign in again', {
          cause: error,
        });
      throw error;
    }
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const call = `${method} ${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.authorization) headers.authorization = this.authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      throw new Error(
        `${call}: the management API at ${this.base} is unreachable (${(error as Error).message})`,
        { cause: error },
      );
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text.slice(0, 500);
      try {
        const json = JSON.parse(text) as { message?: unknown };
        if (typeof json.message === 'string') message = json.message;
      } catch {
        // not JSON: the text itself
      }
      throw new ApiCallError(res.status, call, message);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get = <T>(path: string) => this.request<T>('GET', path);
  post = <T>(path: string, body?: unknown) => this.request<T>('POST', path, body ?? {});
  delete = (path: string) => this.request<void>('DELETE', path);
}
