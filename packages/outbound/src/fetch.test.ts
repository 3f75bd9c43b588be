import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_FETCH_FAILED, OUTBOUND_SCHEME, OUTBOUND_TOO_LARGE, OutboundError } from './errors.js';
import { outboundFetch } from './fetch.js';
import { createOutboundPolicy } from './policy.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(
  handler: Handler,
  host = '127.0.0.1',
): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}`, hits };
}

async function stop(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** The error a call ends with (it must end with one). */
async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

const ALLOW_PRIVATE = createOutboundPolicy({ allowPrivate: true });

describe('outboundFetch', () => {
  let site: Awaited<ReturnType<typeof listen>>;
  /** On 127.0.0.2: a second loopback address, outside an allowed list that names 127.0.0.1 only. */
  let inner: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    inner = await listen((_req, res) => res.end('secret'), '127.0.0.2');
    site = await listen((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/doc') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      if (url.pathname === '/to-inner') return res.writeHead(302, { location: `${inner.url}/` }).end();
      if (url.pathname === '/to-mapped') {
        return res
          .writeHead(307, { location: `http://[::ffff:127.0.0.2]:${new URL(inner.url).port}/` })
          .end();
      }
      if (url.pathname === '/loop') {
        const n = Number(url.searchParams.get('n') ?? 0);
        return res.writeHead(302, { location: `/loop?n=${n + 1}` }).end();
      }
      if (url.pathname === '/hops') {
        const n = Number(url.searchParams.get('n') ?? 0);
        if (n < 5) return res.writeHead(301, { location: `/hops?n=${n + 1}` }).end();
        return res.end(`arrived after ${n}`);
      }
      if (url.pathname === '/big') {
        return res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
      }
      if (url.pathname === '/endless') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        return pump();
      }
      if (url.pathname === '/silent') return; // never answers
      if (url.pathname === '/echo') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => res.end(`${req.method} ${Buffer.concat(chunks).toString()}`));
        return;
      }
      if (url.pathname === '/see-other') return res.writeHead(303, { location: '/echo' }).end();
      if (url.pathname === '/temporary') return res.writeHead(307, { location: '/echo' }).end();
      res.writeHead(404).end('missing');
    });
  });
  afterAll(async () => {
    await stop(site.server);
    await stop(inner.server);
  });

  describe('refused by default', () => {
    it('refuses a loopback address, by address and by the name localhost, without connecting', async () => {
      const port = new URL(site.url).port;
      const before = site.hits.length;

      const byAddress = await failure(outboundFetch(`${site.url}/doc`));
      const byName = await failure(outboundFetch(`http://localhost:${port}/doc`));
      const byIpv6 = await failure(outboundFetch(`http://[::1]:${port}/doc`));
      const mapped = await failure(outboundFetch(`http://[::ffff:127.0.0.1]:${port}/doc`));

      for (const error of [byAddress, byName, byIpv6, mapped]) {
        expect(error.message).toBe(OUTBOUND_FETCH_FAILED);
        expect(error.failure).toBe('ADDRESS_REFUSED');
      }
      expect(byAddress.detail).toContain('loopback');
      expect(site.hits.length).toBe(before);
    });

    it('refuses the cloud metadata address and the unspecified address', async () => {
      expect((await failure(outboundFetch('http://169.254.169.254/latest/meta-data/'))).failure).toBe(
        'ADDRESS_REFUSED',
      );
      expect((await failure(outboundFetch('http://0.0.0.0/'))).failure).toBe('ADDRESS_REFUSED');
    });

    it('gives the same error for an open port and a closed one', async () => {
      const closed = await listen(() => {});
      const closedUrl = closed.url;
      await stop(closed.server);

      const open = await failure(outboundFetch(`${site.url}/doc`));
      const shut = await failure(outboundFetch(`${closedUrl}/doc`));

      expect(open.message).toBe(shut.message);
      expect(open.message).toBe(OUTBOUND_FETCH_FAILED);
      expect(open.message).not.toMatch(/\d{2,}/);
    });

    it('refuses a redirect from an allowed server to a private one, also in its IPv4-mapped IPv6 form', async () => {
      const policy = createOutboundPolicy({ allowed: ['127.0.0.1'] });

      const ok = await outboundFetch(`${site.url}/doc`, { policy });
      const toInner = await failure(outboundFetch(`${site.url}/to-inner`, { policy }));
      const toMapped = await failure(outboundFetch(`${site.url}/to-mapped`, { policy }));

      expect(ok.text()).toBe('hello');
      expect(toInner.failure).toBe('ADDRESS_REFUSED');
      expect(toInner.message).toBe(OUTBOUND_FETCH_FAILED);
      expect(toMapped.failure).toBe('ADDRESS_REFUSED');
      expect(inner.hits).toEqual([]);
    });

    it('refuses schemes other than http and https', async () => {
      for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:6379/_INFO']) {
        const error = await failure(outboundFetch(url));
        expect(error.message).toBe(OUTBOUND_SCHEME);
      }
    });
  });

  describe('allowed when configured', () => {
    it('reads a private server with allowPrivate, and with its address or range in the allowed list', async () => {
      const port = new URL(site.url).port;
      const cases = [
        { policy: ALLOW_PRIVATE, url: `${site.url}/doc` },
        { policy: createOutboundPolicy({ allowed: ['127.0.0.0/8'] }), url: `${site.url}/doc` },
        { policy: createOutboundPolicy({ allowed: ['localhost'] }), url: `http://localhost:${port}/doc` },
      ];
      for (const { policy, url } of cases) {
        const res = await outboundFetch(url, { policy, accept: 'text/plain' });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/plain');
        expect(res.text()).toBe('hello');
      }
    });

    it('answers any status as it is', async () => {
      const res = await outboundFetch(`${site.url}/nope`, { policy: ALLOW_PRIVATE });
      expect(res.status).toBe(404);
      expect(res.text()).toBe('missing');
    });

    it('follows up to 5 redirects, and refuses the sixth', async () => {
      const five = await outboundFetch(`${site.url}/hops`, { policy: ALLOW_PRIVATE });
      const before = site.hits.length;
      const loop = await failure(outboundFetch(`${site.url}/loop`, { policy: ALLOW_PRIVATE }));

      expect(five.text()).toBe('arrived after 5');
      expect(five.url).toBe(`${site.url}/hops?n=5`);
      expect(loop.failure).toBe('TOO_MANY_REDIRECTS');
      expect(loop.message).toBe(OUTBOUND_FETCH_FAILED);
      expect(site.hits.length - before).toBe(6);
    });

    it('sends the method and body, turns a 303 into a GET and keeps them through a 307', async () => {
      const direct = await outboundFetch(`${site.url}/echo`, {
        policy: ALLOW_PRIVATE,
        method: 'POST',
        body: 'ping',
      });
      const seeOther = await outboundFetch(`${site.url}/see-other`, {
        policy: ALLOW_PRIVATE,
        method: 'POST',
        body: 'ping',
      });
      const temporary = await outboundFetch(`${site.url}/temporary`, {
        policy: ALLOW_PRIVATE,
        method: 'POST',
        body: 'ping',
      });

      expect(direct.text()).toBe('POST ping');
      expect(seeOther.text()).toBe('GET ');
      expect(temporary.text()).toBe('POST ping');
    });
  });

  describe('limits', () => {
    it('refuses a body past the size cap, declared or streamed, naming the limit', async () => {
      const declared = await failure(
        outboundFetch(`${site.url}/big`, { policy: ALLOW_PRIVATE, maxBytes: 1000 }),
      );
      const started = Date.now();
      const streamed = await failure(
        outboundFetch(`${site.url}/endless`, { policy: ALLOW_PRIVATE, maxBytes: 1024 * 1024 }),
      );

      expect(declared.message).toBe(OUTBOUND_TOO_LARGE(1000));
      expect(streamed.message).toBe(OUTBOUND_TOO_LARGE(1024 * 1024));
      expect(streamed.failure).toBe('TOO_LARGE');
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('gives up after the timeout with the generic error', async () => {
      const started = Date.now();
      const error = await failure(
        outboundFetch(`${site.url}/silent`, { policy: ALLOW_PRIVATE, timeoutMs: 300 }),
      );

      expect(error.failure).toBe('TIMEOUT');
      expect(error.message).toBe(OUTBOUND_FETCH_FAILED);
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('gives the same error for a closed port, a server that is no HTTP server and a silent one', async () => {
      const closed = await listen(() => {});
      await stop(closed.server);
      const garbage = createServer();
      garbage.on('connection', (socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
      await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
      try {
        const errors = await Promise.all([
          failure(outboundFetch(`${closed.url}/`, { policy: ALLOW_PRIVATE })),
          failure(
            outboundFetch(`http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`, {
              policy: ALLOW_PRIVATE,
            }),
          ),
          failure(outboundFetch(`${site.url}/silent`, { policy: ALLOW_PRIVATE, timeoutMs: 300 })),
        ]);
        expect(new Set(errors.map((e) => e.message))).toEqual(new Set([OUTBOUND_FETCH_FAILED]));
      } finally {
        await stop(garbage);
      }
    });
  });
});
