import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError } from './errors.js';
import { outboundFetch } from './fetch.js';
import { createOutboundPolicy } from './policy.js';

/** A forward proxy that tunnels CONNECT requests and records their targets. */
async function startProxy(): Promise<{ server: Server; url: string; targets: string[] }> {
  const targets: string[] = [];
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client) => {
    targets.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, targets };
}

describe('outboundFetch through the system proxy', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    proxy = await startProxy();
    site = createServer((req, res) => res.end(`seen ${req.method} ${req.url}`));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const server of [proxy.server, site]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('goes through the proxy only when the request asks for it', async () => {
    const policy = createOutboundPolicy({ allowPrivate: true, proxy: proxy.url });
    const direct = await outboundFetch(`${siteUrl}/a`, { policy });
    expect(direct.text()).toBe('seen GET /a');
    expect(proxy.targets).toEqual([]);

    const proxied = await outboundFetch(`${siteUrl}/b`, {
      policy,
      method: 'POST',
      body: 'x',
      useSystemProxy: true,
    });
    expect(proxied.text()).toBe('seen POST /b');
    expect(proxy.targets).toEqual([new URL(siteUrl).host]);
  });

  it('still refuses a private target before asking the proxy', async () => {
    const policy = createOutboundPolicy({ proxy: proxy.url });
    const before = proxy.targets.length;
    const error = await outboundFetch(`${siteUrl}/c`, { policy, useSystemProxy: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).failure).toBe('ADDRESS_REFUSED');
    expect(proxy.targets.length).toBe(before);
  });

  it('goes direct when the installation has no proxy', async () => {
    const policy = createOutboundPolicy({ allowPrivate: true });
    const response = await outboundFetch(`${siteUrl}/d`, { policy, useSystemProxy: true });
    expect(response.text()).toBe('seen GET /d');
  });

  it('refuses a proxy setting that is not an http(s) URL', () => {
    expect(() => createOutboundPolicy({ proxy: 'socks5://127.0.0.1:1080' })).toThrow(/Outbound proxy/);
  });
});
