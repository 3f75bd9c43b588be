import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '@portico/storage';
import { findLease, openStorage } from '@portico/storage';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase, testDialects } from '@portico/storage/testing';
import { Scheduler } from './scheduler.js';

const quiet = { warn: () => {} };

/** A second connection to the same database, as a second management process would open. */
async function secondConnection(t: TestDatabase): Promise<Storage> {
  return t.databaseUrl
    ? openStorage({ databaseUrl: t.databaseUrl, dataDir: t.dataDir, poolSize: 2 })
    : openStorage({ dataDir: t.dataDir });
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: scheduler lease`, () => {
    let t: TestDatabase;
    let other: Storage;
    let clock = 0;
    const now = () => clock;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
      other = await secondConnection(t);
    });
    afterAll(async () => {
      await other?.close();
      await t?.destroy();
    });
    beforeEach(async () => {
      clock = 1_000_000;
      await t.storage.db.deleteFrom('scheduler_leases').execute();
    });

    /** Two schedulers on two connections to one database, each with a job counting its runs. */
    function twoSchedulers() {
      const runs = { a: 0, b: 0 };
      const a = new Scheduler(t.storage.db, { owner: 'a', leaseMs: 10_000, now, log: quiet });
      const b = new Scheduler(other.db, { owner: 'b', leaseMs: 10_000, now, log: quiet });
      a.add({ name: 'count', run: async () => void runs.a++ });
      b.add({ name: 'count', run: async () => void runs.b++ });
      return { a, b, runs };
    }

    it('runs the job once per tick however many schedulers tick at the same time', async () => {
      const { a, b, runs } = twoSchedulers();
      for (let i = 0; i < 5; i++) {
        const held = await Promise.all([a.tick(), b.tick()]);
        expect(held.filter(Boolean)).toHaveLength(1);
        clock += 1000;
      }
      expect(runs.a + runs.b).toBe(5);
      expect(Math.min(runs.a, runs.b)).toBe(0);
    });

    it('hands the work over when the holder stops, or when its lease expires', async () => {
      const { a, b, runs } = twoSchedulers();
      expect(await a.tick()).toBe(true);
      expect(await b.tick()).toBe(false);
      await a.stop();
      expect(await b.tick()).toBe(true);
      expect((await findLease(t.storage.db, 'scheduler'))?.owner).toBe('b');

      // b dies without releasing: a waits for the lease to expire.
      clock += 9_999;
      expect(await a.tick()).toBe(false);
      clock += 2;
      expect(await a.tick()).toBe(true);
      expect(runs).toEqual({ a: 2, b: 1 });
    });

    it('keeps running the other jobs when one fails', async () => {
      const a = new Scheduler(t.storage.db, { owner: 'a', now, log: quiet });
      let ran = false;
      a.add({ name: 'broken', run: async () => Promise.reject(new Error('boom')) });
      a.add({ name: 'fine', run: async () => void (ran = true) });
      expect(await a.tick()).toBe(true);
      expect(ran).toBe(true);
    });
  });
}
