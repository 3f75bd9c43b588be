import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import type { Certificates } from '../test-support/http-config-backends.js';
import {
  endpointCalls,
  makeCertificates,
  startForwardProxy,
  startHttpsBackend,
  startSocks5Server,
} from '../test-support/http-config-backends.js';

describe('endpoint HTTP configuration: proxies', () => {
  let h: PolicyHarness;
  let certificates: Certificates;
  const closeAfter: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    [h, certificates] = await Promise.all([startPolicyHarness({ name: 'echo' }), makeCertificates()]);
  });
  afterAll(async () => {
    await Promise.all(closeAfter.map((close) => close()));
    await h.close();
  });

  const { deployGroup, get } = endpointCalls(() => h);

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
});
