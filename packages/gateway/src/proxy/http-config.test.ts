import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import { endpointCalls } from '../test-support/http-config-backends.js';

describe('endpoint HTTP configuration: headers, inherit, compression', () => {
  let h: PolicyHarness;
  const closeAfter: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    h = await startPolicyHarness({ name: 'echo' });
  });
  afterAll(async () => {
    await Promise.all(closeAfter.map((close) => close()));
    await h.close();
  });

  const { deployGroup, get } = endpointCalls(() => h);

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
});
