import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { findInstanceById } from '@portico/storage';
import { createTestDatabase, testDialects, type TestDatabase } from '@portico/storage/testing';
import { Heartbeat } from './heartbeat.js';

for (const dialect of await testDialects())
  describe(`${dialect}: gateway heartbeat`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());

    it('registers the instance, beats with monitoring data, and marks it stopped', async () => {
      const id = randomUUID();
      let dropped = 0;
      let served = { seq: 17, digest: '00112233aabbccdd' };
      const heartbeat = new Heartbeat(
        t.storage.db,
        { id, port: 8082, version: '9.9.9', tags: ['eu', '!internal'], tenant: 'eu' },
        () => dropped,
        50,
        () => served,
      );
      await heartbeat.start();
      const registered = await findInstanceById(t.storage.db, id);
      expect(registered).toMatchObject({
        state: 'STARTED',
        port: 8082,
        version: '9.9.9',
        tenant: 'eu',
        stopped_at: null,
        sync_seq: 17,
        sync_digest: '00112233aabbccdd',
      });
      expect(JSON.parse(registered!.tags)).toEqual(['eu', '!internal']);
      const plugins = JSON.parse(registered!.plugins) as { id: string; type: string }[];
      expect(plugins.map((p) => p.id)).toContain('rate-limit');
      // Policies, resources, the reporter and the services, each with its type icon on screen.
      expect(new Set(plugins.map((p) => p.type))).toEqual(
        new Set(['policy', 'resource', 'reporter', 'service']),
      );
      expect(plugins).toContainEqual(expect.objectContaining({ id: 'oauth2', type: 'resource' }));
      expect(JSON.parse(registered!.system_properties)['node.version']).toBe(process.version);

      dropped = 3;
      // The gateway applied newer events: the next beats tell which, so a lagging gateway shows.
      served = { seq: 23, digest: 'ffeeddccbbaa9988' };
      await new Promise((r) => setTimeout(r, 200));
      const beating = await findInstanceById(t.storage.db, id);
      expect(beating!.last_heartbeat_at).toBeGreaterThan(registered!.last_heartbeat_at);
      expect(beating!.dropped_reports).toBe(3);
      expect(beating).toMatchObject({ sync_seq: 23, sync_digest: 'ffeeddccbbaa9988' });
      const monitoring = JSON.parse(beating!.monitoring!);
      expect(monitoring.jvm.heap_used_in_bytes).toBeGreaterThan(0);
      expect(monitoring.jvm.pools.old.max).toBeGreaterThan(0);
      expect(monitoring.jvm.pools.old.used).toBeLessThanOrEqual(monitoring.jvm.pools.old.peak);
      // The spec's field names: gc at the top level, not under jvm.
      expect(monitoring.gc).toHaveProperty('young_collection_count');
      expect(monitoring.jvm.gc).toBeUndefined();
      expect(monitoring.cpu.load_average).toHaveProperty('1m');
      expect(monitoring.process.open_file_descriptors).toBeGreaterThan(0);
      expect(monitoring.thread.count).toBeGreaterThan(0);
      expect(monitoring.event_loop).toHaveProperty('delay_p99_ms');

      await heartbeat.stop();
      const stopped = await findInstanceById(t.storage.db, id);
      expect(stopped!.state).toBe('STOPPED');
      expect(stopped!.stopped_at).toBeGreaterThan(0);
    });
  });
