import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertInstance } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import {
  call,
  login,
  signInNewUser,
  startTestApp,
  type TestApp,
  type TestSession,
} from '../../test-support/index.js';

for (const dialect of await testDialects())
  describe(`${dialect}: gateway instances`, () => {
    let t: TestApp;
    let admin: TestSession;
    const running = randomUUID();
    const lost = randomUUID();
    const stopped = randomUUID();

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
      const now = t.clock.peek();
      const row = (id: string, changes: object) => ({
        id,
        hostname: `host-${id.slice(0, 4)}`,
        ip: '10.0.0.1',
        port: 8082,
        version: '1.0',
        tags: '["eu"]',
        tenant: 'eu',
        plugins: '[{"id":"rate-limit","name":"Rate limiting","version":"1.0","type":"policy"}]',
        system_properties: '{"node.version":"v20"}',
        operating_system_name: 'Linux',
        state: 'STARTED',
        started_at: now - 60_000,
        last_heartbeat_at: now - 1000,
        stopped_at: null,
        monitoring: '{"cpu":{"percent_use":12},"jvm":{"heap_used_percent":40}}',
        dropped_reports: 0,
        ...changes,
      });
      await insertInstance(t.db, row(running, { sync_seq: 42, sync_digest: '0123456789abcdef' }));
      await insertInstance(t.db, row(lost, { last_heartbeat_at: now - 60_000, started_at: now - 120_000 }));
      await insertInstance(
        t.db,
        row(stopped, { state: 'STOPPED', stopped_at: now - 5000, started_at: now - 200_000 }),
      );
    });
    afterAll(async () => t.close());

    it('lists the running instances, and the history with includeStopped', async () => {
      const live = await call(t.app, admin, { method: 'GET', url: '/instances' });
      expect(live.statusCode).toBe(200);
      expect(live.json<{ content: { id: string }[] }>().content.map((i) => i.id)).toEqual([running]);
      const history = await call(t.app, admin, {
        method: 'GET',
        url: '/instances?includeStopped=true&page=0&size=10',
      });
      const all = history.json<{
        content: { id: string; state: string; stopped_at: number | null }[];
        totalElements: number;
      }>();
      expect(all.totalElements).toBe(3);
      expect(all.content.find((i) => i.id === lost)).toMatchObject({ state: 'stopped' });
      expect(all.content.find((i) => i.id === lost)!.stopped_at).not.toBeNull();
    });

    it('pages the live list without the silently lost ones, and the history within [from, to]', async () => {
      const live = await call(t.app, admin, { method: 'GET', url: '/instances?page=0&size=1' });
      // The lost instance is not counted: the live total is what the cards show.
      expect(live.json()).toMatchObject({ totalElements: 1, content: [{ id: running }] });
      const now = t.clock.peek();
      const page2 = await call(t.app, admin, {
        method: 'GET',
        url: '/instances?includeStopped=true&page=1&size=2',
      });
      // Sorted by started_at descending: running, lost, then stopped on the second page.
      expect(page2.json()).toMatchObject({ totalElements: 3, content: [{ id: stopped }] });
      const window = await call(t.app, admin, {
        method: 'GET',
        url: `/instances?includeStopped=true&from=${now - 30_000}&to=${now}`,
      });
      // The lost one beat last 60 s ago: it was not alive in the last 30 s.
      expect(
        window
          .json<{ content: { id: string }[] }>()
          .content.map((i) => i.id)
          .sort(),
      ).toEqual([running, stopped].sort());
      const bad = await call(t.app, admin, { method: 'GET', url: `/instances?from=${now}&to=${now - 1}` });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain('from');
    });

    it('shows the event sequence and the digest each gateway serves, so a lagging one stands out', async () => {
      const list = await call(t.app, admin, { method: 'GET', url: '/instances' });
      expect(list.json<{ content: object[] }>().content[0]).toMatchObject({
        id: running,
        sync_seq: 42,
        sync_digest: '0123456789abcdef',
      });
      const one = await call(t.app, admin, { method: 'GET', url: `/instances/${running}` });
      expect(one.json()).toMatchObject({ sync_seq: 42, sync_digest: '0123456789abcdef' });
    });

    it('shows one instance with plugins, system properties and its monitoring data', async () => {
      const one = await call(t.app, admin, { method: 'GET', url: `/instances/${running}` });
      expect(one.json()).toMatchObject({
        id: running,
        state: 'started',
        tags: ['eu'],
        systemProperties: { 'node.version': 'v20' },
      });
      const monitoring = await call(t.app, admin, {
        method: 'GET',
        url: `/instances/${running}/monitoring/${running}`,
      });
      expect(monitoring.json()).toMatchObject({ cpu: { percent_use: 12 }, jvm: { heap_used_percent: 40 } });
      expect((await call(t.app, admin, { method: 'GET', url: `/instances/nope` })).statusCode).toBe(404);
    });

    it('needs management-instance-r', async () => {
      const user = await signInNewUser(t.app, t.db);
      expect((await call(t.app, user.session, { method: 'GET', url: '/instances' })).statusCode).toBe(403);
    });
  });
