import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamCall } from '../upstream-call.js';
import { Http1Client } from './http1-client.js';
import type { Http1Options } from './http1-client.js';

const OPTIONS: Http1Options = {
  connections: 10,
  keepAlive: true,
  idleTimeout: 60_000,
  connectTimeout: 2_000,
};
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server, closed after the test; answers its URL and the connections it accepted. */
async function serve(server: net.Server): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(() => {
    (server as http.Server).closeAllConnections?.();
    return new Promise((r) => server.close(r));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
  };
}

const origins = new WeakMap<Http1Client, string>();

function client(url: string, options: Partial<Http1Options> = {}): Http1Client {
  const c = new Http1Client(new URL(url), { ...OPTIONS, ...options }, new Agent());
  origins.set(c, url);
  closers.push(() => c.close());
  return c;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One call through the client, as the gateway makes it; rejects with the call's error. */
async function call(
  c: Http1Client,
  path: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | Readable;
    timeout?: number;
    origin?: string;
  } = {},
): Promise<Answer> {
  const handler = new UpstreamCall();
  c.dispatch(
    {
      origin: init.origin ?? origins.get(c)!,
      path,
      method: (init.method ?? 'GET') as 'GET',
      headers: { host: 'backend', ...init.headers },
      body: init.body,
      headersTimeout: init.timeout ?? 5_000,
      bodyTimeout: init.timeout ?? 5_000,
    },
    handler,
  );
  const response = await handler.started;
  const body = await response.readAll();
  return { status: response.statusCode, headers: response.headers, body: body.toString() };
}

/** Echoes the request: method, path, the headers it got and its body. */
function echo(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.stringify({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
      res.end(body);
    });
  });
}

describe('Http1Client', () => {
  it('sends calls one after another on one kept connection, with their headers and bodies', async () => {
    const backend = await serve(echo());
    const c = client(backend.url);
    const first = await call(c, '/a?x=1', { headers: { 'x-one': '1' } });
    expect(first.status).toBe(200);
    expect(first.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(JSON.parse(first.body)).toMatchObject({ method: 'GET', url: '/a?x=1', headers: { 'x-one': '1' } });
    const posted = JSON.parse((await call(c, '/b', { method: 'POST', body: Buffer.from('hello') })).body);
    expect(posted).toMatchObject({ method: 'POST', body: 'hello', headers: { 'content-length': '5' } });
    const empty = JSON.parse((await call(c, '/c', { method: 'POST' })).body);
    expect(empty.headers['content-length']).toBe('0');
    expect(backend.connections()).toBe(1);
  });

  it('streams a body of unknown length chunked, and one of known length as it is', async () => {
    const backend = await serve(echo());
    const c = client(backend.url);
    const parts = () => Readable.from([Buffer.from('one,'), Buffer.from('two,'), Buffer.from('three')]);
    const chunked = JSON.parse((await call(c, '/s', { method: 'PUT', body: parts() })).body);
    expect(chunked).toMatchObject({ body: 'one,two,three', headers: { 'transfer-encoding': 'chunked' } });
    const sized = JSON.parse(
      (await call(c, '/s', { method: 'PUT', body: parts(), headers: { 'content-length': '13' } })).body,
    );
    expect(sized).toMatchObject({ body: 'one,two,three', headers: { 'content-length': '13' } });
  });

  it('sends a call again on a new connection when the kept one closes before answering', async () => {
    // Answers the first request of each connection and drops the connection at the second, as a
    // backend does that closes an idle connection while a request is on its way.
    const server = net.createServer((socket) => {
      let requests = 0;
      socket.on('data', () => {
        if (++requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
        else socket.destroy();
      });
    });
    const backend = await serve(server);
    const c = client(backend.url);
    // Two kept connections, both of which drop the next request: the call sent again goes to a new
    // connection, not to the other kept one.
    const first = await Promise.all([call(c, '/1'), call(c, '/1')]);
    expect(first.map((a) => a.body)).toEqual(['ok', 'ok']);
    expect((await call(c, '/2')).body).toBe('ok');
    expect(backend.connections()).toBe(3);
    // A streamed body cannot be sent twice: that call fails instead.
    const failed = call(c, '/3', { method: 'POST', body: Readable.from([Buffer.from('x')]) });
    await expect(failed).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(backend.connections()).toBe(3);
  });

  it('fails a call whose head or body comes too late with undici codes', async () => {
    const server = net.createServer((socket) => {
      socket.once('data', (d) => {
        if (d.toString().startsWith('GET /body'))
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab');
      });
    });
    const backend = await serve(server);
    const c = client(backend.url);
    await expect(call(c, '/head', { timeout: 100 })).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
    const handler = new UpstreamCall();
    c.dispatch(
      {
        origin: backend.url,
        path: '/body',
        method: 'GET',
        headers: {},
        headersTimeout: 100,
        bodyTimeout: 100,
      },
      handler,
    );
    const response = await handler.started;
    await expect(response.readAll()).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('waits for a free connection beyond its limit', async () => {
    let inFlight = 0;
    let most = 0;
    const server = http.createServer((_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('done');
      }, 20);
    });
    const backend = await serve(server);
    const c = client(backend.url, { connections: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call(c, `/${i}`)));
    expect(answers.map((a) => a.body)).toEqual(Array(6).fill('done'));
    expect(most).toBe(2);
    expect(backend.connections()).toBe(2);
  });

  it('refuses a header that would break the request, without connecting', async () => {
    const backend = await serve(echo());
    const c = client(backend.url);
    await expect(call(c, '/', { headers: { 'x-bad': 'a\r\nx-injected: 1' } })).rejects.toMatchObject({
      code: 'UND_ERR_INVALID_ARG',
    });
    await expect(call(c, '/', { headers: { 'bad name': 'a' } })).rejects.toMatchObject({
      code: 'UND_ERR_INVALID_ARG',
    });
    expect(backend.connections()).toBe(0);
  });

  it('closes a kept connection before the backend says it would, and a connection not to keep', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = 1000;
    const backend = await serve(server);
    const c = client(backend.url);
    await call(c, '/');
    // Keep-Alive: timeout=1 leaves no margin: the client closes the connection at its next check.
    await new Promise((r) => setTimeout(r, 1200));
    await call(c, '/');
    expect(backend.connections()).toBe(2);
    const once = client(backend.url, { keepAlive: false });
    expect(JSON.stringify((await call(once, '/')).body)).toBe('"ok"');
  });

  it('sends a call to another origin through undici', async () => {
    const here = await serve(echo());
    const there = await serve(echo());
    const c = client(here.url);
    const answer = await call(c, '/', { origin: there.url });
    expect(answer.status).toBe(200);
    expect(here.connections()).toBe(0);
    expect(there.connections()).toBe(1);
  });

  it('closes once the calls in flight are answered', async () => {
    const server = http.createServer((_req, res) => setTimeout(() => res.end('late'), 100));
    const backend = await serve(server);
    const c = new Http1Client(new URL(backend.url), OPTIONS, new Agent());
    origins.set(c, backend.url);
    const pending = call(c, '/');
    await new Promise((r) => setTimeout(r, 20));
    await c.close();
    expect((await pending).body).toBe('late');
  });
});
