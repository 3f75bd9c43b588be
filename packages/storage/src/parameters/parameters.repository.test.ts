import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  findAllParameters,
  findParameter,
  insertParameterIfAbsent,
  upsertParameter,
} from './parameters.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: parameters repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('parameters').execute();
    });

    describe('upsertParameter and findParameter', () => {
      it('creates a parameter that is absent', async () => {
        await upsertParameter(t.storage.db, 'portal.title', 'Portico', NOW);

        expect(await findParameter(t.storage.db, 'portal.title')).toEqual({
          key: 'portal.title',
          value: 'Portico',
          updated_at: NOW,
        });
      });

      it('overwrites the value and the update date of an existing parameter', async () => {
        await upsertParameter(t.storage.db, 'portal.title', 'Portico', NOW);

        await upsertParameter(t.storage.db, 'portal.title', 'My portal', NOW + 10);

        expect(await findParameter(t.storage.db, 'portal.title')).toEqual({
          key: 'portal.title',
          value: 'My portal',
          updated_at: NOW + 10,
        });
        expect(await findAllParameters(t.storage.db)).toHaveLength(1);
      });

      it('stores an empty value as an empty string', async () => {
        await upsertParameter(t.storage.db, 'portal.title', '', NOW);

        expect((await findParameter(t.storage.db, 'portal.title'))?.value).toBe('');
      });

      it('returns undefined for an unknown key', async () => {
        await upsertParameter(t.storage.db, 'portal.title', 'Portico', NOW);

        expect(await findParameter(t.storage.db, 'portal')).toBeUndefined();
      });
    });

    describe('insertParameterIfAbsent', () => {
      it('stores and returns the value when the parameter is absent', async () => {
        const value = await insertParameterIfAbsent(t.storage.db, 'portico.internal.secret', 'first', NOW);

        expect(value).toBe('first');
        expect(await findParameter(t.storage.db, 'portico.internal.secret')).toEqual({
          key: 'portico.internal.secret',
          value: 'first',
          updated_at: NOW,
        });
      });

      it('keeps and returns the first value when the parameter exists', async () => {
        await insertParameterIfAbsent(t.storage.db, 'portico.internal.secret', 'first', NOW);

        const value = await insertParameterIfAbsent(
          t.storage.db,
          'portico.internal.secret',
          'second',
          NOW + 10,
        );

        expect(value).toBe('first');
        expect(await findParameter(t.storage.db, 'portico.internal.secret')).toEqual({
          key: 'portico.internal.secret',
          value: 'first',
          updated_at: NOW,
        });
      });

      it('gives every concurrent caller the same stored value', async () => {
        const values = await Promise.all(
          ['a', 'b', 'c', 'd'].map((v) =>
            insertParameterIfAbsent(t.storage.db, 'portico.internal.key', v, NOW),
          ),
        );

        const stored = (await findParameter(t.storage.db, 'portico.internal.key'))?.value;
        expect(values).toEqual([stored, stored, stored, stored]);
      });
    });

    describe('findAllParameters', () => {
      it('returns every parameter by key', async () => {
        await upsertParameter(t.storage.db, 'portal.title', 'Portico', NOW);
        await upsertParameter(t.storage.db, 'console.theme', 'dark', NOW);
        await upsertParameter(t.storage.db, 'portal.apikey.header', 'X-Api-Key', NOW);

        const rows = await findAllParameters(t.storage.db);

        expect(rows.map((r) => [r.key, r.value])).toEqual([
          ['console.theme', 'dark'],
          ['portal.apikey.header', 'X-Api-Key'],
          ['portal.title', 'Portico'],
        ]);
      });

      it('returns nothing when no parameter is set', async () => {
        expect(await findAllParameters(t.storage.db)).toEqual([]);
      });
    });
  });
}
