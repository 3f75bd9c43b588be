import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpClient, basicAuthorization } from './client';
import { DEFAULT_TIMEOUT, HttpError, LONG_TIMEOUT, errorText } from './http-error';

type Call = { url: string; init: RequestInit };

function fakeFetch(answer: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    calls.push(call);
    return answer(call);
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const header = (call: Call, name: string) => new Headers(call.init.headers).get(name);

describe('HttpClient', () => {
  afterEach(() => vi.useRealTimers());

  it('calls the management API relative to the base URL with the session cookie', async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    const client = new HttpClient({ baseURL: 'http://api:8083/management/', fetch });
    expect(await client.get('user/tasks', { query: { page: 1, size: 10, skip: undefined } })).toEqual({
      ok: true,
    });
    expect(calls[0]!.url).toBe('http://api:8083/management/user/tasks?page=1&size=10');
    expect(calls[0]!.init.credentials).toBe('include');
  });

  it('loads files of the web app itself from the app, not the API', async () => {
    const { fetch, calls } = fakeFetch(
      () => new Response('# Doc', { headers: { 'Content-Type': 'text/markdown' } }),
    );
    const client = new HttpClient({ baseURL: 'http://api/management/', fetch, appUrl: (p) => `/app/${p}` });
    expect(await client.get('docs/home.md', { target: 'app', responseType: 'text' })).toBe('# Doc');
    expect(calls[0]!.url).toBe('/app/docs/home.md');
    expect(calls[0]!.init.credentials).toBe('same-origin');
  });

  it('keeps the latest X-Xsrf-Token seen and sends it back on writes only', async () => {
    let token = 'first';
    const { fetch, calls } = fakeFetch(() => json({}, 200, { 'X-Xsrf-Token': token }));
    const client = new HttpClient({ baseURL: 'http://api/', fetch });
    await client.get('user');
    token = 'second';
    await client.put('user', { firstname: 'Ada' });
    await client.get('user');
    await client.delete('user/notifications');
    expect(header(calls[0]!, 'X-Xsrf-Token')).toBeNull();
    expect(header(calls[1]!, 'X-Xsrf-Token')).toBe('first');
    expect(header(calls[2]!, 'X-Xsrf-Token')).toBeNull();
    expect(header(calls[3]!, 'X-Xsrf-Token')).toBe('second');
  });

  it('sends JSON bodies and the If-Match entity tag', async () => {
    const { fetch, calls } = fakeFetch(() => json({}));
    const client = new HttpClient({ baseURL: 'http://api/', fetch });
    await client.request('user', { method: 'PUT', body: { email: 'a@b.c' }, ifMatch: '"abc"' });
    expect(calls[0]!.init.body).toBe('{"email":"a@b.c"}');
    expect(header(calls[0]!, 'Content-Type')).toBe('application/json');
    expect(header(calls[0]!, 'If-Match')).toBe('"abc"');
  });

  it('encodes Basic credentials as UTF-8', () => {
    expect(basicAuthorization('admin', 'admin')).toBe('Basic YWRtaW46YWRtaW4=');
    expect(basicAuthorization('zoë', 'pässword')).toBe(
      `Basic ${Buffer.from('zoë:pässword').toString('base64')}`,
    );
  });

  it('rejects with the status and data of an error answer, and tells the catalogue', async () => {
    const onError = vi.fn();
    const { fetch } = fakeFetch(() => json({ message: 'Wrong user or password', http_status: 401 }, 401));
    const client = new HttpClient({ baseURL: 'http://api/', fetch, onError });
    const error = await client
      .post('user/login', undefined, { headers: { Authorization: basicAuthorization('a', 'b') } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(401);
    expect((error as HttpError).text).toBe('Wrong user or password');
    expect((error as HttpError).request.hadAuthorization).toBe(true);
    expect(onError).toHaveBeenCalledWith(error);
  });

  it('turns a network failure into status 0', async () => {
    const onError = vi.fn();
    const client = new HttpClient({
      baseURL: 'http://api/',
      fetch: (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch,
      onError,
    });
    const error = (await client.get('portal').catch((e: unknown) => e)) as HttpError;
    expect(error.status).toBe(0);
    expect(error.reason).toBe('network');
    expect(onError).toHaveBeenCalledOnce();
  });

  const hanging = (() =>
    ((_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )) as unknown as typeof fetch)();

  it('gives up after 10000 ms by default', async () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const client = new HttpClient({ baseURL: 'http://api/', fetch: hanging, onError });
    const result = client.get('user').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT - 1);
    expect(onError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = (await result) as HttpError;
    expect(DEFAULT_TIMEOUT).toBe(10_000);
    expect(error.reason).toBe('timeout');
    expect(error.status).toBe(0);
    expect(onError).toHaveBeenCalledOnce();
  });

  it('waits 30000 ms for the long calls', async () => {
    vi.useFakeTimers();
    const client = new HttpClient({ baseURL: 'http://api/', fetch: hanging });
    let settled = false;
    const result = client.get('apis/1/logs', { timeout: LONG_TIMEOUT }).catch((e: unknown) => {
      settled = true;
      return e;
    });
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT + 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(LONG_TIMEOUT - DEFAULT_TIMEOUT);
    expect(((await result) as HttpError).reason).toBe('timeout');
  });

  it('does not report a cancelled call to the catalogue', async () => {
    const onError = vi.fn();
    const client = new HttpClient({ baseURL: 'http://api/', fetch: hanging, onError });
    const controller = new AbortController();
    const result = client.get('user', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(((await result) as HttpError).reason).toBe('abort');
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('error text extraction', () => {
  it('takes the first element message of an array', () => {
    expect(errorText([{ message: 'first' }, { message: 'second' }], 'Bad Request')).toBe('first');
  });
  it('else the message field', () => {
    expect(errorText({ message: 'Invalid value', http_status: 400 }, 'Bad Request')).toBe('Invalid value');
  });
  it('else the data when it is a string', () => {
    expect(errorText('Gateway down', 'Bad Gateway')).toBe('Gateway down');
  });
  it('else the status text', () => {
    expect(errorText(undefined, 'Internal Server Error')).toBe('Internal Server Error');
    expect(errorText({ error: 'x' }, 'Conflict')).toBe('Conflict');
  });
});
