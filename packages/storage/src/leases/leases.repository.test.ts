import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { acquireLease, findLease, releaseLease } from './leases.repository.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: scheduler leases`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('scheduler_leases').execute();
    });

    it('gives a free lease to the first owner and refuses it to another until it expires', async () => {
      const db = t.storage.db;
      expect(await acquireLease(db, 'scheduler', 'a', 1000, 500)).toBe(true);
      expect(await acquireLease(db, 'scheduler', 'b', 1200, 500)).toBe(false);
      expect(await acquireLease(db, 'scheduler', 'a', 1300, 500)).toBe(true);
      expect(await findLease(db, 'scheduler')).toEqual({ name: 'scheduler', owner: 'a', expires_at: 1800 });
      expect(await acquireLease(db, 'scheduler', 'b', 1800, 500)).toBe(true);
      expect((await findLease(db, 'scheduler'))?.owner).toBe('b');
    });

    it('gives the lease to exactly one of many owners trying at once', async () => {
      const owners = Array.from({ length: 8 }, (_, i) => `owner-${i}`);
      const won = await Promise.all(owners.map((o) => acquireLease(t.storage.db, 'race', o, 1000, 500)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await findLease(t.storage.db, 'race'))?.owner).toBe(owners[won.indexOf(true)]);
    });

    it('lets another owner take a released lease at once', async () => {
      const db = t.storage.db;
      await acquireLease(db, 'scheduler', 'a', 1000, 60_000);
      await releaseLease(db, 'scheduler', 'b');
      expect(await acquireLease(db, 'scheduler', 'b', 1001, 500)).toBe(false);
      await releaseLease(db, 'scheduler', 'a');
      expect(await acquireLease(db, 'scheduler', 'b', 1002, 500)).toBe(true);
    });
  });
}
