import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findInstanceById, findInstances, insertInstance, updateInstance } from './instances.repository.js';
import type { NewInstanceRow } from './instances.table.js';

const NOW = 1_790_000_000_000;

const instance = (id: string, changes: Partial<NewInstanceRow> = {}): NewInstanceRow => ({
  id,
  hostname: 'host',
  ip: '10.0.0.1',
  port: 8082,
  version: '1',
  tags: '[]',
  tenant: null,
  plugins: '[]',
  system_properties: '{}',
  operating_system_name: 'Linux',
  state: 'STARTED',
  started_at: NOW,
  last_heartbeat_at: NOW,
  stopped_at: null,
  monitoring: null,
  dropped_reports: 0,
  ...changes,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: instances repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());
    beforeEach(async () => {
      await t.storage.db.deleteFrom('instances').execute();
    });

    it('registers, updates and finds an instance', async () => {
      await insertInstance(t.storage.db, instance('i1'));
      await updateInstance(t.storage.db, 'i1', {
        last_heartbeat_at: NOW + 5000,
        monitoring: '{"cpu":{}}',
        dropped_reports: 2,
      });
      expect(await findInstanceById(t.storage.db, 'i1')).toMatchObject({
        last_heartbeat_at: NOW + 5000,
        dropped_reports: 2,
        monitoring: '{"cpu":{}}',
      });
      expect(await findInstanceById(t.storage.db, 'nope')).toBeUndefined();
    });

    it('lists running instances newest first, and stopped ones only when asked, by time range', async () => {
      await insertInstance(
        t.storage.db,
        instance('old', {
          started_at: NOW - 100,
          state: 'STOPPED',
          stopped_at: NOW - 50,
          last_heartbeat_at: NOW - 50,
        }),
      );
      await insertInstance(
        t.storage.db,
        instance('new', { started_at: NOW + 10, last_heartbeat_at: NOW + 20 }),
      );
      await insertInstance(t.storage.db, instance('mid', { started_at: NOW, last_heartbeat_at: NOW + 20 }));
      const live = await findInstances(t.storage.db, { includeStopped: false, offset: 0, limit: 10 });
      expect(live.rows.map((r) => r.id)).toEqual(['new', 'mid']);
      const history = await findInstances(t.storage.db, { includeStopped: true, offset: 0, limit: 10 });
      expect(history.total).toBe(3);
      const recent = await findInstances(t.storage.db, {
        includeStopped: true,
        from: NOW,
        offset: 0,
        limit: 10,
      });
      expect(recent.rows.map((r) => r.id)).toEqual(['new', 'mid']);
    });
  });
}
