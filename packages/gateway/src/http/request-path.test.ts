import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedApi } from '../test-support/deployments.js';
import { startPolicyHarness, type Echo, type PolicyHarness } from '../test-support/policy-harness.js';
import { rawGet } from '../test-support/raw-request.js';
import { PATH_ERRORS, needsNormalising, normalisePath } from './request-path.js';
import { indexRequestSegments } from '@portico/storage';

describe('request path normalisation', () => {
  it('leaves ordinary paths to the fast check', () => {
    for (const path of ['/', '/orders', '/orders/42/lines', '/a-b_c~d/file.json', '/orders/'])
      expect(needsNormalising(path)).toBe(false);
    for (const path of ['/a/../b', '/a/./b', '/a//b', '/a/%2e%2e', '/a\\b', '/.well-known', 'http://x/'])
      expect(needsNormalising(path)).toBe(true);
  });

  it('removes dot segments, merges slashes and decodes unreserved characters', () => {
    expect(normalisePath('/api/a/../b')).toEqual({ path: '/api/b', floor: 1 });
    expect(normalisePath('/api/%2e%2e/b')).toEqual({ path: '/b', floor: 0 });
    expect(normalisePath('/api/%2E%2e/b')).toEqual({ path: '/b', floor: 0 });
    expect(normalisePath('/api/.%2E/b')).toEqual({ path: '/b', floor: 0 });
    expect(normalisePath('/api/./b/.')).toEqual({ path: '/api/b/', floor: Infinity });
    expect(normalisePath('/api//b///c')).toEqual({ path: '/api/b/c', floor: Infinity });
    expect(normalisePath('/api/%61dmin/%7e%41')).toEqual({ path: '/api/admin/~A', floor: Infinity });
    expect(normalisePath('/api/caf%c3%a9%20x')).toEqual({ path: '/api/caf%C3%A9%20x', floor: Infinity });
    expect(normalisePath('/api/b/..')).toEqual({ path: '/api/', floor: 1 });
  });

  it('refuses what cannot be read one way only', () => {
    expect(normalisePath('/..')).toEqual({ error: PATH_ERRORS.climbs });
    expect(normalisePath('/a/../../b')).toEqual({ error: PATH_ERRORS.climbs });
    expect(normalisePath('/a%2Fb')).toEqual({ error: PATH_ERRORS.encodedSeparator });
    expect(normalisePath('/a%2fb')).toEqual({ error: PATH_ERRORS.encodedSeparator });
    expect(normalisePath('/a%5cb')).toEqual({ error: PATH_ERRORS.encodedSeparator });
    expect(normalisePath('/a%00b')).toEqual({ error: PATH_ERRORS.encodedSeparator });
    expect(normalisePath('/a\\b')).toEqual({ error: PATH_ERRORS.backslash });
    expect(normalisePath('/a%zzb')).toEqual({ error: PATH_ERRORS.malformed });
    expect(normalisePath('/a%2')).toEqual({ error: PATH_ERRORS.malformed });
    expect(normalisePath('/a/..;/b')).toEqual({ error: PATH_ERRORS.dotParameters });
    expect(normalisePath('*')).toEqual({ error: PATH_ERRORS.notAbsolute });
  });
});

describe('gateway: request paths', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
    // Two APIs whose backends share one host, under two base paths.
    await h.deploy(deployedApi('/team-a', [`${h.backend.url}/service-a`]));
    await h.deploy(
      deployedApi('/team-b', [`${h.backend.url}/service-b`], {
        plans: [{ security: 'API_KEY', securityDefinition: '{}' }],
      }),
    );
    // A plan rule (resource filtering) and a path policy (transform-headers on /admin).
    await h.deploy(
      deployedApi('/guarded', [`${h.backend.url}/base`], {
        plans: [
          {
            security: 'KEY_LESS',
            paths: {
              '/': [{ 'resource-filtering': { blacklist: [{ pattern: '/admin/**' }] } }],
              '/internal': [
                {
                  'transform-headers': {
                    addHeaders: [{ name: 'X-Internal-Flow', value: 'applied' }],
                  },
                },
              ],
            },
          },
        ],
      }),
    );
  });
  afterAll(() => h.close());

  const echo = async (path: string) => {
    const res = await rawGet(h.gateway.url, path);
    expect(res.status, `${path}: ${res.body}`).toBe(200);
    return JSON.parse(res.body) as Echo;
  };

  it('sends the normalised path to the backend', async () => {
    expect((await echo('/team-a/x/../y')).url).toBe('/service-a/y');
    expect((await echo('/team-a/x/%2e%2e/y')).url).toBe('/service-a/y');
    expect((await echo('/team-a/./y')).url).toBe('/service-a/y');
    expect((await echo('/team-a//y//z')).url).toBe('/service-a/y/z');
    expect((await echo('/team-a/%79?q=%2e%2e&r=1')).url).toBe('/service-a/y?q=%2e%2e&r=1');
  });

  it('reports the path as received in uri and the normalised one in path', async () => {
    const res = await rawGet(h.gateway.url, '/team-a/x/%2e%2e/y?z=1');
    expect(res.status).toBe(200);
    await h.gateway.reporter.flush();
    await indexRequestSegments(h.t.storage.db);
    const row = await h.t.storage.db
      .selectFrom('requests')
      .select(['uri', 'path', 'status'])
      .where('id', '=', res.headers['x-request-id'] as string)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ uri: '/team-a/x/%2e%2e/y?z=1', path: '/team-a/y', status: 200 });
  });

  it.each([
    ['/team-a/../team-b/secret', PATH_ERRORS.climbs],
    ['/team-a/%2e%2e/service-b/secret', PATH_ERRORS.climbs],
    ['/team-a/%2E%2e/service-b/secret', PATH_ERRORS.climbs],
    ['/team-a/..%2Fservice-b/secret', PATH_ERRORS.encodedSeparator],
    ['/team-a/x/%2e%2e/%2e%2e/service-b', PATH_ERRORS.climbs],
    ['/team-a/..%5Cservice-b', PATH_ERRORS.encodedSeparator],
    ['/team-a/..\\service-b', PATH_ERRORS.backslash],
    ['/team-a/a%00b', PATH_ERRORS.encodedSeparator],
    ['/../team-a', PATH_ERRORS.climbs],
  ])('refuses %s with a 400, without calling a backend', async (path, message) => {
    const hits = h.backend.hits;
    const res = await rawGet(h.gateway.url, path);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ message, http_status: 400 });
    expect(h.backend.hits).toBe(hits);
  });

  it('applies plan rules to the normalised path', async () => {
    for (const path of [
      '/guarded/admin/users',
      '/guarded/%61dmin/users',
      '/guarded//admin/users',
      '/guarded/./admin/users',
      '/guarded/public/../admin/users',
      '/guarded/public/%2e%2e/admin/users',
    ]) {
      expect((await rawGet(h.gateway.url, path)).status, path).toBe(403);
    }
    expect((await echo('/guarded/public/../open')).url).toBe('/base/open');
  });

  it('applies path policies to the normalised path', async () => {
    expect((await echo('/guarded/internal/x')).headers['x-internal-flow']).toBe('applied');
    const echoed = await echo('/guarded/public/../internal/x');
    expect(echoed.url).toBe('/base/internal/x');
    expect(echoed.headers['x-internal-flow']).toBe('applied');
    expect((await echo('/guarded/%69nternal/x')).headers['x-internal-flow']).toBe('applied');
  });
});
