import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  findApiKey,
  findApiKeysExpiringUnnotified,
  findApiKeysOfSubscription,
  insertApiKey,
  updateApiKey,
  updateApiKeysOfSubscription,
} from './api-keys.repository.js';
import type { NewApiKeyRow } from './api-keys.table.js';

const NOW = 1_790_000_000_000;

const key = (k: string, changes: Partial<NewApiKeyRow> = {}): NewApiKeyRow => ({
  key: k,
  subscription_id: 's1',
  application_id: 'app1',
  plan_id: 'p1',
  api_id: 'api1',
  revoked: 0,
  paused: 0,
  created_at: NOW,
  updated_at: NOW,
  ...changes,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: API keys repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('api_keys').execute();
    });

    it('stores every column and reads the key back', async () => {
      const row = {
        ...key('k1'),
        revoked: 1,
        paused: 1,
        revoked_at: NOW + 1,
        expire_at: NOW + 2,
        expiry_notified_at: NOW + 3,
      };
      await insertApiKey(t.storage.db, row);
      expect(await findApiKey(t.storage.db, 'k1')).toEqual({
        ...row,
        // PostgreSQL: the writing transaction (the gateways' sync order); SQLite leaves it empty.
        sync_tx: dialect === 'postgres' ? expect.any(Number) : null,
      });
      expect(await findApiKey(t.storage.db, 'k2')).toBeUndefined();
    });

    it('refuses a second key with the same value', async () => {
      await insertApiKey(t.storage.db, key('k1'));
      await expect(insertApiKey(t.storage.db, key('k1', { subscription_id: 's2' }))).rejects.toThrow();
      expect((await findApiKey(t.storage.db, 'k1'))?.subscription_id).toBe('s1');
    });

    it('lists the keys of a subscription, newest first', async () => {
      await insertApiKey(t.storage.db, key('old', { created_at: NOW }));
      await insertApiKey(t.storage.db, key('new', { created_at: NOW + 5 }));
      await insertApiKey(t.storage.db, key('other', { subscription_id: 's2' }));
      expect((await findApiKeysOfSubscription(t.storage.db, 's1')).map((k) => k.key)).toEqual(['new', 'old']);
    });

    it('changes one key', async () => {
      await insertApiKey(t.storage.db, key('k1'));
      await insertApiKey(t.storage.db, key('k2'));
      expect(await updateApiKey(t.storage.db, 'k1', { expire_at: NOW + 7, updated_at: NOW + 7 })).toBe(1);
      expect(await findApiKey(t.storage.db, 'k1')).toMatchObject({ expire_at: NOW + 7, updated_at: NOW + 7 });
      expect((await findApiKey(t.storage.db, 'k2'))?.updated_at).toBe(NOW);
    });

    it('changes the live keys of a subscription, or all of them', async () => {
      await insertApiKey(t.storage.db, key('live'));
      await insertApiKey(t.storage.db, key('revoked', { revoked: 1 }));
      await insertApiKey(t.storage.db, key('other', { subscription_id: 's2' }));
      expect(await updateApiKeysOfSubscription(t.storage.db, 's1', { paused: 1, updated_at: NOW + 1 })).toBe(
        1,
      );
      expect((await findApiKey(t.storage.db, 'live'))?.paused).toBe(1);
      expect((await findApiKey(t.storage.db, 'revoked'))?.paused).toBe(0);
      expect(await updateApiKeysOfSubscription(t.storage.db, 's1', { plan_id: 'p2' }, 'all')).toBe(2);
      expect((await findApiKey(t.storage.db, 'revoked'))?.plan_id).toBe('p2');
      expect((await findApiKey(t.storage.db, 'other'))?.plan_id).toBe('p1');
    });

    it('finds the live keys expiring by an instant whose owner was not told', async () => {
      await insertApiKey(t.storage.db, key('soon', { expire_at: NOW + 10 }));
      await insertApiKey(t.storage.db, key('later', { expire_at: NOW + 1000 }));
      await insertApiKey(t.storage.db, key('never'));
      await insertApiKey(t.storage.db, key('told', { expire_at: NOW + 5, expiry_notified_at: NOW }));
      await insertApiKey(t.storage.db, key('revoked', { expire_at: NOW + 5, revoked: 1 }));
      await insertApiKey(t.storage.db, key('past', { expire_at: NOW - 5 }));
      expect((await findApiKeysExpiringUnnotified(t.storage.db, NOW + 100)).map((k) => k.key)).toEqual([
        'past',
        'soon',
      ]);
    });
  });
}
