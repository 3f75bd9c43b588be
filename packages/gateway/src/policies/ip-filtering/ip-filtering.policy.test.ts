import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../../test-support/deployments.js';
import { startPolicyHarness, type PolicyHarness } from '../../test-support/policy-harness.js';
import { validatePolicyConfiguration } from '../registry.js';

// The test client always connects from 127.0.0.1; X-Forwarded-For carries the other addresses.
describe('ip-filtering policy', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
  });
  afterAll(() => h.close());

  const filtered = async (contextPath: string, config: Record<string, unknown>) => {
    const api = deployedApi(contextPath, [h.backend.url], {
      plans: [{ security: 'KEY_LESS', paths: { '/': [{ 'ip-filtering': config }] } }],
    });
    await h.deploy(api);
    return (forwardedFor?: string) =>
      fetch(`${h.gateway.url}${contextPath}`, {
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      });
  };

  it('refuses a blacklisted client address with 403 IP_FILTERING_FORBIDDEN, without calling the backend', async () => {
    const call = await filtered('/ip-black', { blacklistIps: ['10.0.0.0/8', '127.0.0.0/8'] });
    const hitsBefore = h.backend.hits;
    const res = await call();
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      message:
        'Your IP (127.0.0.1) or some proxies whereby your request passes through are not allowed to reach this resource.',
      http_status: 403,
    });
    expect(h.backend.hits).toBe(hitsBefore);
  });

  it('allows whitelisted addresses and ranges only', async () => {
    expect(
      (await (await filtered('/ip-white-ok', { whitelistIps: ['192.168.1.0/24', '127.0.0.1'] }))()).status,
    ).toBe(200);
    expect(
      (await (await filtered('/ip-white-no', { whitelistIps: ['192.168.1.0/24', '::1'] }))()).status,
    ).toBe(403);
  });

  it('refuses an address both whitelisted and blacklisted', async () => {
    const call = await filtered('/ip-both', { whitelistIps: ['127.0.0.0/8'], blacklistIps: ['127.0.0.1'] });
    expect((await call()).status).toBe(403);
  });

  it('ignores X-Forwarded-For unless configured to use it', async () => {
    const call = await filtered('/ip-ignore-xff', { whitelistIps: ['127.0.0.1'] });
    expect((await call('203.0.113.9')).status).toBe(200);
  });

  it('with useXForwardedFor, checks the first X-Forwarded-For address (IPv4 and IPv6 ranges)', async () => {
    const call = await filtered('/ip-first', {
      useXForwardedFor: true,
      blacklistIps: ['203.0.113.0/24', '2001:db8::/32'],
    });
    expect((await call('203.0.113.9, 198.51.100.1')).status).toBe(403);
    expect((await call('2001:db8:1::7')).status).toBe(403);
    expect((await call('[2001:db8::1]:443')).status).toBe(403);
    expect((await call('2001:db9::1')).status).toBe(200);
    expect((await call('198.51.100.1, 203.0.113.9')).status).toBe(200);
    // Without the header, the connection's address is checked.
    expect((await call()).status).toBe(200);
  });

  it('with matchAllFromXForwardedFor, every address of X-Forwarded-For must be allowed', async () => {
    const black = await filtered('/ip-all-black', {
      matchAllFromXForwardedFor: true,
      blacklistIps: ['198.51.100.0/24'],
    });
    expect((await black('203.0.113.9, 198.51.100.1')).status).toBe(403);
    expect((await black('203.0.113.9, 192.0.2.1')).status).toBe(200);

    const white = await filtered('/ip-all-white', {
      matchAllFromXForwardedFor: true,
      whitelistIps: ['203.0.113.0/24', 'fd00::/8'],
    });
    expect((await white('203.0.113.9, fd00::1:2')).status).toBe(200);
    expect((await white('203.0.113.9, 192.0.2.1')).status).toBe(403);
    expect((await white('203.0.113.9, not-an-ip')).status).toBe(403);
  });

  it('answers through the API response template of IP_FILTERING_FORBIDDEN', async () => {
    const api = deployedApi('/ip-templated', [h.backend.url], {
      definition: {
        paths: { '/': [{ 'ip-filtering': { blacklistIps: ['127.0.0.1'] } }] },
        response_templates: {
          IP_FILTERING_FORBIDDEN: { '*/*': { status: 404, headers: { 'x-why': 'ip' }, body: '{}' } },
        },
      },
    });
    await h.deploy(api);
    const res = await fetch(`${h.gateway.url}/ip-templated`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-why')).toBe('ip');
  });

  it('refuses an entry that is neither an address nor a CIDR range, naming it', () => {
    for (const bad of ['10.0.0.0/33', 'example.com', '2001:db8::/129', '1.2.3']) {
      expect(validatePolicyConfiguration('ip-filtering', { whitelistIps: ['10.0.0.1', bad] })).toMatchObject({
        ok: false,
        field: 'whitelistIps.1',
      });
    }
  });
});
