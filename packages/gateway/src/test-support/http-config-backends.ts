import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { TLSSocket } from 'node:tls';
import selfsigned from 'selfsigned';
import { request } from 'undici';
import type { PolicyHarness } from './policy-harness.js';
import { deployedApi } from './deployments.js';

/** Backends, proxies and certificates for the endpoint HTTP configuration tests. */

/** Closes a server and every connection still open on it. */
export function closer(server: net.Server): () => Promise<void> {
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

export async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** An HTTP forward proxy (CONNECT tunnels and absolute-form requests) that records what it carried. */
export async function startForwardProxy() {
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
export async function startSocks5Server(credentials: { user: string; password: string }) {
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

export const SAN_127 = { name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }] };

/** A test CA, a server certificate for 127.0.0.1 (and one for another name) and a client certificate. */
export async function makeCertificates() {
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
export async function startHttpsBackend(options: https.ServerOptions) {
  const server = https.createServer(options, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ backend: 'tls', url: req.url, clientCertificate: peer?.subject?.CN ?? null }));
  });
  const close = closer(server);
  return { url: `https://127.0.0.1:${await listen(server)}`, close };
}

/** A backend that redirects: /hop/N -> /hop/N+1 (forever), /see-other -> 303, /temporary -> 307. */
export async function startRedirectingBackend(echoUrl: string) {
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

export type Certificates = Awaited<ReturnType<typeof makeCertificates>>;

/** Deploys an API around one endpoint group and calls it, on the harness started in `beforeAll`. */
export function endpointCalls(harness: () => PolicyHarness) {
  /** Deploys an API around one endpoint group (given whole, as the console saves it). */
  async function deployGroup(contextPath: string, group: Record<string, unknown>) {
    const api = deployedApi(contextPath, [], {
      definition: { proxy: { context_path: contextPath, groups: [{ name: 'g', ...group }] } as never },
    });
    await harness().deploy(api);
    return api;
  }

  const get = (path: string, headers: Record<string, string> = {}) =>
    request(`${harness().gateway.url}${path}`, { headers });
  return { deployGroup, get };
}
