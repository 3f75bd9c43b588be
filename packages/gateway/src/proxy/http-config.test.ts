import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import selfsigned from 'selfsigned';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';

/** Closes a server and every connection still open on it. */
function closer(server: net.Server): () => Promise<void> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** An HTTP forward proxy (CONNECT tunnels and absolute-form requests) that records what it carried. */
async function startForwardProxy() {
  const seen = { targets: [] as string[], authorizations: [] as (string | undefined)[] };
  const server = http.createServer((req, res) => {
    seen.targets.push(req.url ?? '');
    seen.authorizations.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '');
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    seen.targets.push(req.url ?? '');
    seen.authorizations.push(req.headers['proxy-authorization']);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    socket.on('error', () => upstream.destroy());
  });
  const close = closer(server);
  return { port: await listen(server), seen, close };
}

/**
 * A SOCKS5 server (RFC 1928, with RFC 1929 username/password) for CONNECT only: greeting, optional
 * authentication, one connect request, then bytes piped both ways.
 */
async function startSocks5Server(credentials: { user: string; password: string }) {
  const seen = { destinations: [] as string[], users: [] as string[] };
  const server = net.createServer((client) => {
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (stage === 'greeting') {
          // VER NMETHODS METHODS...
          if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
          const methods = [...buffer.subarray(2, 2 + buffer[1]!)];
          buffer = buffer.subarray(2 + buffer[1]!);
          if (!methods.includes(0x02)) return void client.end(Buffer.from([5, 0xff]));
          client.write(Buffer.from([5, 0x02]));
          stage = 'auth';
        } else if (stage === 'auth') {
          // VER ULEN UNAME PLEN PASSWD
          if (buffer.length < 2) return;
          const ulen = buffer[1]!;
          if (buffer.length < 3 + ulen || buffer.length < 3 + ulen + buffer[2 + ulen]!) return;
          const plen = buffer[2 + ulen]!;
          const user = buffer.subarray(2, 2 + ulen).toString();
          const password = buffer.subarray(3 + ulen, 3 + ulen + plen).toString();
          buffer = buffer.subarray(3 + ulen + plen);
          seen.users.push(user);
          const ok = user === credentials.user && password === credentials.password;
          client.write(Buffer.from([1, ok ? 0 : 1]));
          if (!ok) return void client.end();
          stage = 'request';
        } else {
          // VER CMD RSV ATYP DST.ADDR DST.PORT
          if (buffer.length < 5) return;
          const atyp = buffer[3]!;
          const addressLength = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + buffer[4]!;
          if (buffer.length < 4 + addressLength + 2) return;
          const host =
            atyp === 1
              ? [...buffer.subarray(4, 8)].join('.')
              : atyp === 3
                ? buffer.subarray(5, 5 + buffer[4]!).toString()
                : buffer.subarray(4, 20).toString('hex').match(/.{4}/g)!.join(':');
          const port = buffer.readUInt16BE(4 + addressLength);
          const rest = buffer.subarray(4 + addressLength + 2);
          client.off('data', onData);
          seen.destinations.push(`${host}:${port}`);
          const upstream = net.connect(port, host, () => {
            client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
            if (rest.length > 0) upstream.write(rest);
            client.pipe(upstream).pipe(client);
          });
          upstream.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
          return;
        }
      }
    };
    client.on('data', onData);
    client.on('error', () => {});
  });
  const close = closer(server);
  return { port: await listen(server), seen, close };
}

const SAN_127 = { name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }] };

/** A test CA, a server certificate for 127.0.0.1 (and one for another name) and a client certificate. */
async function makeCertificates() {
  const rsa = { keySize: 2048, algorithm: 'sha256' };
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'Portico Test CA' }], {
    ...rsa,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const signed = (cn: string, options: Parameters<typeof selfsigned.generate>[1]) =>
    selfsigned.generate([{ name: 'commonName', value: cn }], {
      ...rsa,
      ...options,
      ca: { key: ca.private, cert: ca.cert },
    });
  const [server, otherName, client] = await Promise.all([
    signed('127.0.0.1', { extensions: [{ name: 'extKeyUsage', serverAuth: true }, SAN_127] }),
    signed('backend.example', {
      extensions: [
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'backend.example' }] },
      ],
    }),
    signed('gateway-client', { extensions: [{ name: 'extKeyUsage', clientAuth: true }] }),
  ]);
  return { ca, server, otherName, client };
}

/** An HTTPS backend answering who it is and which client certificate it saw (when it asks for one). */
async function startHttpsBackend(options: https.ServerOptions) {
  const server = https.createServer(options, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ backend: 'tls', url: req.url, clientCertificate: peer?.subject?.CN ?? null }));
  });
  const close = closer(server);
  return { url: `https://127.0.0.1:${await listen(server)}`, close };
}

/** A backend that redirects: /hop/N -> /hop/N+1 (forever), /see-other -> 303, /temporary -> 307. */
async function startRedirectingBackend(echoUrl: string) {
  const state = { hits: 0 };
  const server = http.createServer((req, res) => {
    state.hits += 1;
    req.resume();
    const hop = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    if (hop) return void res.writeHead(302, { location: `/hop/${Number(hop[1]) + 1}` }).end();
    if (req.url === '/moved') return void res.writeHead(302, { location: '/final' }).end();
    if (req.url === '/see-other') return void res.writeHead(303, { location: '/final' }).end();
    if (req.url === '/temporary') return void res.writeHead(307, { location: `${echoUrl}/kept` }).end();
    if (req.url === '/elsewhere') return void res.writeHead(302, { location: `${echoUrl}/elsewhere` }).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ backend: 'redirecting', url: req.url, method: req.method }));
  });
  const close = closer(server);
  return { url: `http://127.0.0.1:${await listen(server)}`, state, close };
}

describe('endpoint HTTP configuration: headers, inherit, proxies, TLS, compression, redirects', () => {
  let h: PolicyHarness;
  let certificates: Awaited<ReturnType<typeof makeCertificates>>;
  const closeAfter: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    [h, certificates] = await Promise.all([startPolicyHarness({ name: 'echo' }), makeCertificates()]);
  });
  afterAll(async () => {
    await Promise.all(closeAfter.map((close) => close()));
    await h.close();
  });

  /** Deploys an API around one endpoint group (given whole, as the console saves it). */
  async function deployGroup(contextPath: string, group: Record<string, unknown>) {
    const api = deployedApi(contextPath, [], {
      definition: { proxy: { context_path: contextPath, groups: [{ name: 'g', ...group }] } as never },
    });
    await h.deploy(api);
    return api;
  }

  const get = (path: string, headers: Record<string, string> = {}) =>
    request(`${h.gateway.url}${path}`, { headers });

  describe('headers and inherit', () => {
    it('sends the group headers to the backend, replacing a client header of the same name', async () => {
      await deployGroup('/headers-group', {
        headers: { 'X-Env': 'group', 'X-Group-Only': 'yes' },
        endpoints: [{ name: 'e', target: h.backend.url }],
      });
      const res = await get('/headers-group', { 'x-env': 'from-client' });
      expect(res.statusCode).toBe(200);
      const echo = (await res.body.json()) as Echo;
      expect(echo.headers['x-env']).toBe('group');
      expect(echo.headers['x-group-only']).toBe('yes');
    });

    it('with inherit false, uses the endpoint own headers and HTTP configuration instead of the group ones', async () => {
      const group = { http: { useCompression: false }, headers: { 'x-env': 'group', 'x-group-only': 'yes' } };
      await deployGroup('/inherit-true', {
        ...group,
        endpoints: [
          { name: 'e', target: h.backend.url, http: { useCompression: true }, headers: { 'x-env': 'own' } },
        ],
      });
      await deployGroup('/inherit-false', {
        ...group,
        endpoints: [
          {
            name: 'e',
            target: h.backend.url,
            inherit: false,
            http: { useCompression: true },
            headers: { 'x-env': 'own' },
          },
        ],
      });
      const inherited = (await (
        await get('/inherit-true', { 'accept-encoding': 'gzip' })
      ).body.json()) as Echo;
      expect(inherited.headers['x-env']).toBe('group');
      expect(inherited.headers['accept-encoding']).toBeUndefined();

      const own = (await (await get('/inherit-false', { 'accept-encoding': 'gzip' })).body.json()) as Echo;
      expect(own.headers['x-env']).toBe('own');
      expect(own.headers['x-group-only']).toBeUndefined();
      expect(own.headers['accept-encoding']).toBe('gzip');
    });
  });

  describe('proxies', () => {
    it('goes through the HTTP proxy of the configuration, with its credentials, and not when it is disabled', async () => {
      const proxy = await startForwardProxy();
      closeAfter.push(proxy.close);
      const backendHost = new URL(h.backend.url).host;
      const proxyConfig = {
        type: 'HTTP',
        host: '127.0.0.1',
        port: proxy.port,
        username: 'gw',
        password: 's3cret',
      };
      await deployGroup('/via-http-proxy', {
        proxy: { enabled: true, ...proxyConfig },
        endpoints: [{ name: 'e', target: `${h.backend.url}/behind` }],
      });
      await deployGroup('/proxy-disabled', {
        proxy: { enabled: false, ...proxyConfig },
        endpoints: [{ name: 'e', target: h.backend.url }],
      });

      const res = await get('/via-http-proxy/x');
      expect(res.statusCode).toBe(200);
      expect(((await res.body.json()) as Echo).url).toBe('/behind/x');
      expect(proxy.seen.targets).toEqual([expect.stringContaining(backendHost)]);
      expect(proxy.seen.authorizations).toEqual([`Basic ${Buffer.from('gw:s3cret').toString('base64')}`]);

      const direct = await get('/proxy-disabled');
      expect(direct.statusCode).toBe(200);
      await direct.body.dump();
      expect(proxy.seen.targets).toHaveLength(1);
    });

    it('tunnels TLS to an HTTPS backend through the HTTP proxy, with the endpoint TLS options', async () => {
      const proxy = await startForwardProxy();
      const tls = await startHttpsBackend({
        key: certificates.server.private,
        cert: certificates.server.cert,
      });
      closeAfter.push(proxy.close, tls.close);
      await deployGroup('/via-http-proxy-tls', {
        proxy: { enabled: true, type: 'HTTP', host: '127.0.0.1', port: proxy.port },
        ssl: { trustStore: { type: 'PEM', content: certificates.ca.cert } },
        endpoints: [{ name: 'e', target: tls.url }],
      });
      const res = await get('/via-http-proxy-tls/y');
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toMatchObject({ backend: 'tls', url: '/y' });
      expect(proxy.seen.targets).toEqual([new URL(tls.url).host]);
      expect(proxy.seen.authorizations).toEqual([undefined]);
    });

    it('goes through a SOCKS5 proxy with username and password, for HTTP and HTTPS backends', async () => {
      const socks = await startSocks5Server({ user: 'gw', password: 'socks-pass' });
      const tls = await startHttpsBackend({
        key: certificates.server.private,
        cert: certificates.server.cert,
      });
      closeAfter.push(socks.close, tls.close);
      const proxy = { enabled: true, type: 'SOCKS5', host: '127.0.0.1', port: socks.port, username: 'gw' };
      await deployGroup('/via-socks', {
        proxy: { ...proxy, password: 'socks-pass' },
        endpoints: [{ name: 'e', target: `${h.backend.url}/socks` }],
      });
      await deployGroup('/via-socks-tls', {
        proxy: { ...proxy, password: 'socks-pass' },
        ssl: { trustStore: { type: 'PEM', content: certificates.ca.cert } },
        endpoints: [{ name: 'e', target: tls.url }],
      });
      await deployGroup('/via-socks-wrong', {
        proxy: { ...proxy, password: 'wrong' },
        endpoints: [{ name: 'e', target: h.backend.url }],
      });

      const plain = await get('/via-socks/a');
      expect(plain.statusCode).toBe(200);
      expect(((await plain.body.json()) as Echo).url).toBe('/socks/a');
      const secure = await get('/via-socks-tls/b');
      expect(secure.statusCode).toBe(200);
      expect(await secure.body.json()).toMatchObject({ backend: 'tls', url: '/b' });
      expect(socks.seen.destinations).toEqual([
        `127.0.0.1:${new URL(h.backend.url).port}`,
        `127.0.0.1:${new URL(tls.url).port}`,
      ]);
      const refused = await get('/via-socks-wrong');
      expect(refused.statusCode).toBe(502);
      await refused.body.dump();
      expect(socks.seen.users).toEqual(['gw', 'gw', 'gw']);
    });
  });

  describe('TLS to the backend', () => {
    let tls: { url: string; close(): Promise<void> };
    let otherName: { url: string; close(): Promise<void> };
    let mutual: { url: string; close(): Promise<void> };
    let dir: string;

    beforeAll(async () => {
      const { server, ca, client } = certificates;
      [tls, otherName, mutual] = await Promise.all([
        startHttpsBackend({ key: server.private, cert: server.cert }),
        startHttpsBackend({ key: certificates.otherName.private, cert: certificates.otherName.cert }),
        startHttpsBackend({
          key: server.private,
          cert: server.cert,
          ca: ca.cert,
          requestCert: true,
          rejectUnauthorized: true,
        }),
      ]);
      closeAfter.push(tls.close, otherName.close, mutual.close);
      dir = mkdtempSync(path.join(os.tmpdir(), 'portico-tls-'));
      writeFileSync(path.join(dir, 'ca.pem'), ca.cert);
      writeFileSync(path.join(dir, 'client.pem'), client.cert);
      writeFileSync(path.join(dir, 'client.key'), client.private);
      closeAfter.push(async () => rmSync(dir, { recursive: true, force: true }));
    });

    it('refuses a certificate it does not trust (502), accepts it with trustAll or with the CA in a PEM trust store', async () => {
      await deployGroup('/tls-untrusted', { endpoints: [{ name: 'e', target: tls.url }] });
      await deployGroup('/tls-trust-all', {
        ssl: { trustAll: true },
        endpoints: [{ name: 'e', target: tls.url }],
      });
      await deployGroup('/tls-pem-content', {
        ssl: { trustStore: { type: 'PEM', content: certificates.ca.cert } },
        endpoints: [{ name: 'e', target: tls.url }],
      });
      await deployGroup('/tls-pem-path', {
        ssl: { trustStore: { type: 'PEM', path: path.join(dir, 'ca.pem') } },
        endpoints: [{ name: 'e', target: tls.url }],
      });

      const untrusted = await get('/tls-untrusted');
      expect(untrusted.statusCode).toBe(502);
      await untrusted.body.dump();
      for (const api of ['/tls-trust-all', '/tls-pem-content', '/tls-pem-path']) {
        const res = await get(`${api}/x`);
        expect(res.statusCode, api).toBe(200);
        expect(await res.body.json()).toMatchObject({ backend: 'tls', url: '/x' });
      }
    });

    it('checks the host name against the certificate unless hostnameVerifier is off', async () => {
      const trustStore = { type: 'PEM', content: certificates.ca.cert };
      await deployGroup('/tls-wrong-name', {
        ssl: { trustStore },
        endpoints: [{ name: 'e', target: otherName.url }],
      });
      await deployGroup('/tls-no-verifier', {
        ssl: { trustStore, hostnameVerifier: false },
        endpoints: [{ name: 'e', target: otherName.url }],
      });
      const checked = await get('/tls-wrong-name');
      expect(checked.statusCode).toBe(502);
      await checked.body.dump();
      expect((await get('/tls-no-verifier')).statusCode).toBe(200);
    });

    it('presents the client certificate of the PEM key store to a backend that requires one', async () => {
      const trustStore = { type: 'PEM', content: certificates.ca.cert };
      await deployGroup('/mtls-none', {
        ssl: { trustStore },
        endpoints: [{ name: 'e', target: mutual.url }],
      });
      await deployGroup('/mtls-content', {
        ssl: {
          trustStore,
          keyStore: {
            type: 'PEM',
            certContent: certificates.client.cert,
            keyContent: certificates.client.private,
          },
        },
        endpoints: [{ name: 'e', target: mutual.url }],
      });
      await deployGroup('/mtls-path', {
        ssl: {
          trustStore,
          keyStore: {
            type: 'PEM',
            certPath: path.join(dir, 'client.pem'),
            keyPath: path.join(dir, 'client.key'),
          },
        },
        endpoints: [{ name: 'e', target: mutual.url }],
      });

      const refused = await get('/mtls-none');
      expect(refused.statusCode).toBe(502);
      await refused.body.dump();
      for (const api of ['/mtls-content', '/mtls-path']) {
        const res = await get(api);
        expect(res.statusCode, api).toBe(200);
        expect(await res.body.json()).toMatchObject({ clientCertificate: 'gateway-client' });
      }
    });
  });

  it('passes Accept-Encoding on with compression (the default), and removes it with useCompression false', async () => {
    await deployGroup('/compression-on', { endpoints: [{ name: 'e', target: h.backend.url }] });
    await deployGroup('/compression-off', {
      http: { useCompression: false },
      endpoints: [{ name: 'e', target: h.backend.url }],
    });
    const on = (await (await get('/compression-on', { 'accept-encoding': 'gzip' })).body.json()) as Echo;
    expect(on.headers['accept-encoding']).toBe('gzip');
    const off = (await (await get('/compression-off', { 'accept-encoding': 'gzip' })).body.json()) as Echo;
    expect(off.headers['accept-encoding']).toBeUndefined();
  });

  describe('followRedirects', () => {
    let redirecting: Awaited<ReturnType<typeof startRedirectingBackend>>;
    beforeAll(async () => {
      redirecting = await startRedirectingBackend(h.backend.url);
      closeAfter.push(redirecting.close);
      await deployGroup('/redirects-off', { endpoints: [{ name: 'e', target: redirecting.url }] });
      await deployGroup('/redirects-on', {
        http: { followRedirects: true },
        endpoints: [{ name: 'e', target: redirecting.url }],
      });
    });

    it('answers the redirect to the client when off (the default)', async () => {
      const res = await get('/redirects-off/moved');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/final');
      await res.body.dump();
    });

    it('follows redirects when on: 302 and 303 as GET, to another origin without the credentials', async () => {
      const moved = await get('/redirects-on/moved');
      expect(moved.statusCode).toBe(200);
      expect(await moved.body.json()).toMatchObject({ backend: 'redirecting', url: '/final', method: 'GET' });

      const posted = await request(`${h.gateway.url}/redirects-on/see-other`, {
        method: 'POST',
        body: 'form',
      });
      expect(posted.statusCode).toBe(303); // a streamed body cannot be sent again: not followed
      await posted.body.dump();

      const away = await get('/redirects-on/elsewhere', { authorization: 'Bearer secret', 'x-kept': 'yes' });
      expect(away.statusCode).toBe(200);
      const echo = (await away.body.json()) as Echo;
      expect(echo.url).toBe('/elsewhere');
      expect(echo.headers.authorization).toBeUndefined();
      expect(echo.headers['x-kept']).toBe('yes');
      expect(echo.headers.host).toBe(new URL(h.backend.url).host);
    });

    it('stops after 5 redirects and answers the last one', async () => {
      const before = redirecting.state.hits;
      const res = await get('/redirects-on/hop/0');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/hop/6');
      await res.body.dump();
      expect(redirecting.state.hits - before).toBe(6);
    });

    it('sends a buffered body again on a 307, and leaves a streamed one to the client', async () => {
      // Logging buffers the request body: it can be sent again.
      const api = deployedApi('/redirects-buffered', [], {
        definition: {
          proxy: {
            context_path: '/redirects-buffered',
            logging: { mode: 'CLIENT' },
            groups: [
              {
                name: 'g',
                http: { followRedirects: true },
                endpoints: [{ name: 'e', target: redirecting.url }],
              },
            ],
          } as never,
        },
      });
      await h.deploy(api);
      const buffered = await request(`${h.gateway.url}/redirects-buffered/temporary`, {
        method: 'PUT',
        body: 'payload',
        headers: { 'content-type': 'text/plain' },
      });
      expect(buffered.statusCode).toBe(200);
      expect(await buffered.body.json()).toMatchObject({ method: 'PUT', url: '/kept', body: 'payload' });

      const streamed = await request(`${h.gateway.url}/redirects-on/temporary`, {
        method: 'PUT',
        body: 'payload',
      });
      expect(streamed.statusCode).toBe(307);
      await streamed.body.dump();
    });
  });
});
