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
  private readonly authorization: string | undefined;

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
    if (credentials.token) this.authorization = `Bearer ${credentials.token}`;
    else if (credentials.username !== undefined)
      this.authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ''}`).toString('base64')}`;
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
