import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findToken, insertToken, markTokenUsed, supersedeTokens } from './tokens.repository.js';
import type { NewTokenRow } from './tokens.table.js';

const NOW = 1_790_000_000_000;

function token(id: string, changes: Partial<NewTokenRow> = {}): NewTokenRow {
  return {
    id,
    type: 'RESET_PASSWORD',
    user_id: 'u1',
    expires_at: NOW + 3_600_000,
    created_at: NOW,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: tokens repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('tokens').execute();
    });

    describe('insertToken and findToken', () => {
      it('stores the token unused and reads it back', async () => {
        await insertToken(t.storage.db, token('t1', { type: 'USER_REGISTRATION' }));

        expect(await findToken(t.storage.db, 't1')).toEqual({
          id: 't1',
          type: 'USER_REGISTRATION',
          user_id: 'u1',
          expires_at: NOW + 3_600_000,
          used_at: null,
          created_at: NOW,
        });
      });

      it('returns undefined for an unknown id', async () => {
        await insertToken(t.storage.db, token('t1'));

        expect(await findToken(t.storage.db, 't2')).toBeUndefined();
      });

      it('refuses a second token with the same id', async () => {
        await insertToken(t.storage.db, token('t1'));

        await expect(insertToken(t.storage.db, token('t1', { user_id: 'u2' }))).rejects.toThrow();
        expect((await findToken(t.storage.db, 't1'))?.user_id).toBe('u1');
      });
    });

    describe('supersedeTokens', () => {
      it("ends the user's unused tokens of the type but the one kept, leaving others alone", async () => {
        await insertToken(t.storage.db, token('old-1'));
        await insertToken(t.storage.db, token('old-2'));
        await insertToken(t.storage.db, token('kept'));
        await insertToken(t.storage.db, token('used', { used_at: NOW - 5 }));
        await insertToken(t.storage.db, token('registration', { type: 'USER_REGISTRATION' }));
        await insertToken(t.storage.db, token('other-user', { user_id: 'u2' }));

        expect(await supersedeTokens(t.storage.db, 'u1', 'RESET_PASSWORD', NOW + 1, 'kept')).toBe(2);

        const usedAt = async (id: string) => (await findToken(t.storage.db, id))?.used_at;
        expect(await usedAt('old-1')).toBe(NOW + 1);
        expect(await usedAt('old-2')).toBe(NOW + 1);
        expect(await usedAt('kept')).toBeNull();
        expect(await usedAt('used')).toBe(NOW - 5);
        expect(await usedAt('registration')).toBeNull();
        expect(await usedAt('other-user')).toBeNull();
        expect(await markTokenUsed(t.storage.db, 'old-1', NOW + 2)).toBe(false);
      });
    });

    describe('markTokenUsed', () => {
      it('marks an unused token used at the given instant and returns true', async () => {
        await insertToken(t.storage.db, token('t1'));

        expect(await markTokenUsed(t.storage.db, 't1', NOW + 5)).toBe(true);
        expect((await findToken(t.storage.db, 't1'))?.used_at).toBe(NOW + 5);
      });

      it('returns false the second time and keeps the first use instant', async () => {
        await insertToken(t.storage.db, token('t1'));
        await markTokenUsed(t.storage.db, 't1', NOW + 5);

        expect(await markTokenUsed(t.storage.db, 't1', NOW + 9)).toBe(false);
        expect((await findToken(t.storage.db, 't1'))?.used_at).toBe(NOW + 5);
      });

      it('lets only one of two simultaneous uses succeed', async () => {
        await insertToken(t.storage.db, token('t1'));

        const results = await Promise.all([
          markTokenUsed(t.storage.db, 't1', NOW + 1),
          markTokenUsed(t.storage.db, 't1', NOW + 2),
        ]);

        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('returns false for an unknown token', async () => {
        expect(await markTokenUsed(t.storage.db, 'missing', NOW)).toBe(false);
      });

      it('leaves the other tokens unused', async () => {
        await insertToken(t.storage.db, token('t1'));
        await insertToken(t.storage.db, token('t2'));

        await markTokenUsed(t.storage.db, 't1', NOW + 5);

        expect((await findToken(t.storage.db, 't2'))?.used_at).toBeNull();
      });
    });
  });
}
