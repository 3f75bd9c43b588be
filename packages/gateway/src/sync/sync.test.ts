import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployedApi } from '@portico/model';
import { EventBus, indexRequestSegments, insertApi } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import type { GatewayOptions } from '../gateway.js';
import { startBackend, type Backend } from '../test-support/backends.js';
import { deployedApi, publishEvent, subscribe } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import { eventually, type Echo } from '../test-support/policy-harness.js';

type TestGateway = Awaited<ReturnType<typeof startTestGateway>>;

describe('gateway sync: polling, sharding tags, tenants, deployed definitions', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let a: Backend;
  let b: Backend;
  const gateways: TestGateway[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    [a, b] = await Promise.all([startBackend({ name: 'a' }), startBackend({ name: 'b' })]);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.cleanup()));
    await Promise.all([a.close(), b.close()]);
    await t.destroy();
  });

  async function gateway(overrides: Partial<GatewayOptions> = {}): Promise<TestGateway> {
    const started = await startTestGateway(t.storage, bus, overrides);
    gateways.push(started);
    return started;
  }

  /** Publishes through the database only: no bus message, as another process would. */
  const publishQuietly = (type: 'PUBLISH_API' | 'STOP_API' | 'START_API', api: DeployedApi) =>
    publishEvent(t.storage.db, undefined, type, api);

  const status = async (gw: TestGateway, path: string, headers: Record<string, string> = {}) =>
    (await fetch(`${gw.url}${path}`, { headers })).status;
  const backendOf = async (gw: TestGateway, path: string) =>
    ((await (await fetch(`${gw.url}${path}`)).json()) as Echo).backend;

  describe('polling, without the bus', () => {
    it('picks up a deployment and a stop within a few intervals', async () => {
      const gw = await gateway({ syncIntervalMs: 300 });
      const api = deployedApi('/polled', [a.url]);
      await publishQuietly('PUBLISH_API', api);
      const published = Date.now();
      await eventually(async () => expect(await status(gw, '/polled')).toBe(200), 2000);
      expect(Date.now() - published).toBeLessThan(1500);

      await publishQuietly('STOP_API', api);
      const stopped = Date.now();
      await eventually(async () => expect(await status(gw, '/polled')).toBe(404), 2000);
      expect(Date.now() - stopped).toBeLessThan(1500);
    });

    it('refuses a revoked API key within 6 s at the default 5 s interval, with no bus message', async () => {
      const gw = await gateway();
      const api = deployedApi('/polled-key', [a.url], { plans: [{ security: 'API_KEY' }] });
      await subscribe(t.storage.db, api, api.plans[0]!.id, { key: 'polled-key-1' });
      await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
      const withKey = { 'x-api-key': 'polled-key-1' };
      await eventually(async () => expect(await status(gw, '/polled-key', withKey)).toBe(200));

      await t.storage.db
        .updateTable('api_keys')
        .set({ revoked: 1, revoked_at: Date.now(), updated_at: Date.now() })
        .where('key', '=', 'polled-key-1')
        .execute();
      const revoked = Date.now();
      await eventually(async () => expect(await status(gw, '/polled-key', withKey)).toBe(401), 6500);
      expect(Date.now() - revoked).toBeLessThanOrEqual(6000);
    }, 15_000);
  });

  describe('sharding tags', () => {
    let tagged: { a: DeployedApi; b: DeployedApi; ab: DeployedApi; none: DeployedApi };
    let onlyA: TestGateway;
    let notB: TestGateway;
    let all: TestGateway;

    beforeAll(async () => {
      tagged = {
        a: deployedApi('/tag-a', [a.url], { definition: { tags: ['a'] } }),
        b: deployedApi('/tag-b', [a.url], { definition: { tags: ['b'] } }),
        ab: deployedApi('/tag-ab', [a.url], { definition: { tags: ['a', 'b'] } }),
        none: deployedApi('/tag-none', [a.url]),
      };
      [onlyA, notB, all] = await Promise.all([
        gateway({ tags: ['a'] }),
        gateway({ tags: ['!b'] }),
        gateway(),
      ]);
      for (const api of Object.values(tagged)) await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
      await eventually(async () => expect(await status(all, '/tag-none')).toBe(200));
      await Promise.all([onlyA.sync.sync(), notB.sync.sync()]);
    });

    it('a gateway tagged a serves the APIs tagged a only', async () => {
      expect(await status(onlyA, '/tag-a')).toBe(200);
      expect(await status(onlyA, '/tag-ab')).toBe(200);
      expect(await status(onlyA, '/tag-b')).toBe(404);
      expect(await status(onlyA, '/tag-none')).toBe(404);
    });

    it('a gateway tagged !b serves every API but those tagged b', async () => {
      expect(await status(notB, '/tag-a')).toBe(200);
      expect(await status(notB, '/tag-none')).toBe(200);
      expect(await status(notB, '/tag-b')).toBe(404);
      expect(await status(notB, '/tag-ab')).toBe(404);
    });

    it('a gateway without tags serves every API', async () => {
      for (const path of ['/tag-a', '/tag-b', '/tag-ab', '/tag-none'])
        expect(await status(all, path)).toBe(200);
    });

    it('serves a plan with sharding tags only on the gateways they match', async () => {
      const api = deployedApi('/tag-plans', [a.url], {
        definition: { tags: ['a'] },
        plans: [{ security: 'KEY_LESS', tags: ['internal'] }, { security: 'API_KEY' }],
      });
      await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
      await eventually(async () => expect(await status(all, '/tag-plans')).toBe(200));
      // The key-less plan is tagged internal: the gateway tagged a has only the API key plan.
      await eventually(async () => expect(await status(onlyA, '/tag-plans')).toBe(401));
    });
  });

  it('uses the endpoints of its tenant, and every endpoint when it has none', async () => {
    const [eu, us, anyTenant] = await Promise.all([
      gateway({ tenant: 'eu' }),
      gateway({ tenant: 'us' }),
      gateway(),
    ]);
    const api = deployedApi('/tenants', [], {
      definition: {
        proxy: {
          context_path: '/tenants',
          groups: [
            {
              name: 'g',
              endpoints: [
                { name: 'eu', target: a.url, tenants: ['eu'] },
                { name: 'us', target: b.url, tenants: ['us'] },
              ],
            },
          ],
        } as never,
      },
    });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => {
      for (const gw of [eu, us, anyTenant]) expect(await status(gw, '/tenants')).toBe(200);
    });

    const seen = async (gw: TestGateway) => {
      const backends = new Set<string>();
      for (let i = 0; i < 4; i++) backends.add(await backendOf(gw, '/tenants'));
      return [...backends].sort();
    };
    expect(await seen(eu)).toEqual(['a']);
    expect(await seen(us)).toEqual(['b']);
    expect(await seen(anyTenant)).toEqual(['a', 'b']);

    await eu.reporter.flush();
    await indexRequestSegments(t.storage.db);
    const rows = await t.storage.db
      .selectFrom('requests')
      .select(['tenant', 'endpoint'])
      .where('api_id', '=', api.id)
      .where('gateway', '=', eu.id)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toEqual({ tenant: 'eu', endpoint: `${a.url}/` });
  });

  it('serves the deployed definition only: a later, undeployed change of the API does not matter', async () => {
    const gw = await gateway();
    const deployed = deployedApi('/deployed-only', [a.url]);
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', deployed);
    await eventually(async () => expect(await backendOf(gw, '/deployed-only')).toBe('a'));

    // The API is edited (target b) and saved, not deployed; then stopped and started again.
    const edited = { ...deployed.definition, proxy: { ...deployed.definition.proxy } };
    edited.proxy.groups = [
      {
        ...edited.proxy.groups[0]!,
        endpoints: [{ ...edited.proxy.groups[0]!.endpoints[0]!, target: b.url }],
      },
    ];
    const now = Date.now();
    await insertApi(t.storage.db, {
      id: deployed.id,
      name: deployed.name,
      version: deployed.version,
      description: null,
      context_path: '/deployed-only',
      definition: JSON.stringify(edited),
      state: 'STARTED',
      visibility: 'PUBLIC',
      lifecycle_state: 'PUBLISHED',
      picture: null,
      labels: '[]',
      views: '[]',
      groups: '[]',
      deployed_at: deployed.deployed_at,
      created_at: now,
      updated_at: now + 1000,
    });
    await publishEvent(t.storage.db, bus, 'STOP_API', deployed);
    await eventually(async () => expect(await status(gw, '/deployed-only')).toBe(404));
    await publishEvent(t.storage.db, bus, 'START_API', deployed);
    await eventually(async () => expect(await status(gw, '/deployed-only')).toBe(200));
    expect(await backendOf(gw, '/deployed-only')).toBe('a');

    // A gateway starting now loads the same: the last PUBLISH_API payload, not the API row.
    const fresh = await gateway();
    expect(await backendOf(fresh, '/deployed-only')).toBe('a');
  });

  describe('a migration deferred at start (the database was unreachable)', () => {
    it('runs it once before the first load', async () => {
      let runs = 0;
      await publishQuietly('PUBLISH_API', deployedApi('/deferred-ok', [a.url]));
      const gw = await gateway({ beforeFirstLoad: async () => void runs++ });
      expect(gw.sync.fromDatabase).toBe(true);
      expect(await status(gw, '/deferred-ok')).toBe(200);
      await gw.sync.sync();
      expect(runs).toBe(1);
    });

    it('loads from the database all the same when it fails (a database migrated by a newer version)', async () => {
      let runs = 0;
      await publishQuietly('PUBLISH_API', deployedApi('/deferred-refused', [a.url]));
      const gw = await gateway({
        beforeFirstLoad: async () => {
          runs++;
          throw new Error('corrupted migrations: a newer version migrated this database');
        },
      });
      expect(gw.sync.fromDatabase).toBe(true);
      expect(await status(gw, '/deferred-refused')).toBe(200);
      await gw.sync.sync();
      expect(runs).toBe(1);
    });
  });
});
