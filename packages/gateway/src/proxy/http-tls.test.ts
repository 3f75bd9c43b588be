import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPolicyHarness, type PolicyHarness } from '../test-support/policy-harness.js';
import type { Certificates } from '../test-support/http-config-backends.js';
import { endpointCalls, makeCertificates, startHttpsBackend } from '../test-support/http-config-backends.js';

describe('endpoint HTTP configuration: TLS to the backend', () => {
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
});
