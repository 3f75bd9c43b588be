import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { deployedApi, publishEvent } from '../test-support/deployments.js';
import { startTestGateway } from '../test-support/gateway.js';
import { DOWN, TRANSITIONALLY_DOWN, TRANSITIONALLY_UP, UP, nextState } from './health-checker.js';

/** A backend whose health can be switched: /health answers 200 {"status":"UP"} or 503 {"status":"DOWN"}. */
async function switchable(name: string) {
  const state = { healthy: true, hits: 0 };
  const server = http.createServer((req, res) => {
    if (req.url?.endsWith('/health')) {
      res.writeHead(state.healthy ? 200 : 503, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ status: state.healthy ? 'UP' : 'DOWN' }));
    }
    state.hits += 1;
    res.end(name);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function eventually(check: () => Promise<void> | void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('health state transitions', () => {
  it('goes down after two failures and up after two successes', () => {
    expect(nextState(UP, false)).toBe(TRANSITIONALLY_DOWN);
    expect(nextState(TRANSITIONALLY_DOWN, false)).toBe(DOWN);
    expect(nextState(TRANSITIONALLY_DOWN, true)).toBe(UP);
    expect(nextState(DOWN, true)).toBe(TRANSITIONALLY_UP);
    expect(nextState(TRANSITIONALLY_UP, true)).toBe(UP);
    expect(nextState(TRANSITIONALLY_UP, false)).toBe(DOWN);
    expect(nextState(DOWN, false)).toBe(DOWN);
  });
});

describe('gateway health checks', () => {
  let t: TestDatabase;
  let bus: EventBus;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let a: Awaited<ReturnType<typeof switchable>>;
  let b: Awaited<ReturnType<typeof switchable>>;

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    bus = new EventBus();
    a = await switchable('a');
    b = await switchable('b');
    gateway = await startTestGateway(t.storage, bus);
  });
  afterAll(async () => {
    await gateway.cleanup();
    await a.close();
    await b.close();
    await t.destroy();
  });

  it('takes a failing endpoint out of the balancer, records the transitions, and brings it back', async () => {
    const api = deployedApi('/checked', [a.url, b.url], {
      definition: {
        services: {
          'health-check': {
            enabled: true,
            trigger: { rate: 100, unit: 'MILLISECONDS' },
            steps: [
              {
                request: { method: 'GET', path: '/health', fromRoot: false, headers: [] },
                response: {
                  assertions: ['#response.status == 200', "#jsonPath(#response.content, '$.status') == 'UP'"],
                },
              },
            ],
          },
        },
      },
    });
    await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
    await eventually(async () => expect((await fetch(`${gateway.url}/checked`)).status).toBe(200));

    a.state.healthy = false;
    await eventually(async () => {
      const row = await t.storage.db
        .selectFrom('health_checks')
        .selectAll()
        .where('api_id', '=', api.id)
        .where('endpoint', '=', 'e0')
        .where('state', '=', DOWN)
        .where('transition', '=', 1)
        .executeTakeFirst();
      expect(row?.message).toBe('Assertion not validated: #response.status == 200');
    });
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add(await (await fetch(`${gateway.url}/checked`)).text());
    expect([...seen]).toEqual(['b']);

    a.state.healthy = true;
    await eventually(async () => {
      const names = new Set<string>();
      for (let i = 0; i < 4; i++) names.add(await (await fetch(`${gateway.url}/checked`)).text());
      expect(names).toEqual(new Set(['a', 'b']));
    });
    const transitions = await t.storage.db
      .selectFrom('health_checks')
      .select(['state'])
      .where('api_id', '=', api.id)
      .where('endpoint', '=', 'e0')
      .where('transition', '=', 1)
      .orderBy('timestamp')
      .execute();
    expect(transitions.map((r) => r.state)).toEqual([TRANSITIONALLY_DOWN, DOWN, TRANSITIONALLY_UP, UP]);
  });
});
