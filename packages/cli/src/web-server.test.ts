import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildWebServer } from './web-server.js';

/** A built web app of two files and one asset. */
function fakeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'portico-web-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portico</title>');
  writeFileSync(path.join(dist, 'constants.json'), JSON.stringify({ company: { name: 'Portico' } }));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  return dist;
}

const directives = (policy: string | undefined) =>
  new Map(
    (policy ?? '').split(';').map((d) => {
      const [name = '', ...sources] = d.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );

describe('web server: security headers', () => {
  let app: FastifyInstance;
  let apart: FastifyInstance;

  beforeAll(async () => {
    const dist = fakeDist();
    app = await buildWebServer({ dist, managementPort: 8083 });
    apart = await buildWebServer({
      dist,
      managementPort: 8083,
      managementUrl: 'https://api.example.com/management/',
      analyticsWidgets: ['os_name'],
    });
  });

  afterAll(async () => {
    await app?.close();
    await apart?.close();
  });

  it('sends the policy, frame, content-type and referrer headers on the page, routes, assets and 404s', async () => {
    for (const url of ['/', '/management/apis', '/assets/index-abc.js', '/constants.json', '/missing.js']) {
      const res = await app.inject({ url, headers: { host: 'portal.local:8084' } });
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['content-security-policy'], url).toBeTruthy();
    }
  });

  it("allows the app's own scripts only, inline styles, pictures and the management API it is pointed at", async () => {
    const res = await app.inject({ url: '/', headers: { host: 'portal.local:8084' } });
    const policy = directives(res.headers['content-security-policy'] as string);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
    expect(policy.get('connect-src')).toEqual(["'self'", 'http://portal.local:8083']);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    // constants.json points the app at the same API the policy lets it call.
    const constants = await app.inject({ url: '/constants.json', headers: { host: 'portal.local:8084' } });
    expect(constants.json().baseURL).toBe('http://portal.local:8083/management/');
    expect(constants.json().company).toEqual({ name: 'Portico' });
    expect(constants.json().analytics).toBeUndefined();
    // The optional dashboard widgets of the configuration reach the app.
    const configured = await apart.inject({ url: '/constants.json' });
    expect(configured.json().analytics).toEqual({ widgets: ['os_name'] });
  });

  it('names the management API of PORTICO_MANAGEMENT_URL when the API is elsewhere', async () => {
    const res = await apart.inject({ url: '/', headers: { host: 'portal.local:8084' } });
    expect(directives(res.headers['content-security-policy'] as string).get('connect-src')).toEqual([
      "'self'",
      'https://api.example.com',
    ]);
  });

  it("lets OpenAPI pages' try-it call the gateway and https: try-it URLs when the gateway is known", async () => {
    const withGateway = await buildWebServer({
      dist: fakeDist(),
      managementPort: 8083,
      gatewayUrl: 'http://gateway.local:8082/',
    });
    const res = await withGateway.inject({ url: '/', headers: { host: 'portal.local:8084' } });
    await withGateway.close();
    const policy = directives(res.headers['content-security-policy'] as string);
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'http://portal.local:8083',
      'http://gateway.local:8082',
      'https:',
    ]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
  });

  it('does not let a forged Host header write into the policy', async () => {
    const res = await app.inject({ url: '/', headers: { host: "evil;script-src 'unsafe-inline'" } });
    const policy = directives(res.headers['content-security-policy'] as string);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'", 'http://localhost:8083']);
  });
});
