import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { isSessionRevoked, revokeSession } from './revoked-sessions.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: revoked sessions repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());

    it('remembers a revoked session, twice without error, and forgets expired ones', async () => {
      await revokeSession(t.storage.db, 's1', NOW + 1000, NOW);
      await revokeSession(t.storage.db, 's1', NOW + 1000, NOW);
      expect(await isSessionRevoked(t.storage.db, 's1')).toBe(true);
      expect(await isSessionRevoked(t.storage.db, 's2')).toBe(false);
      await revokeSession(t.storage.db, 's2', NOW + 5000, NOW + 2000);
      expect(await isSessionRevoked(t.storage.db, 's1')).toBe(false);
      expect(await isSessionRevoked(t.storage.db, 's2')).toBe(true);
    });
  });
}
