import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteMetadata,
  findMetadata,
  findMetadataOfReference,
  insertMetadata,
  updateMetadata,
} from './metadata.repository.js';
import type { NewMetadataRow } from './metadata.table.js';

const NOW = 1_790_000_000_000;

function metadata(referenceId: string, key: string, changes: Partial<NewMetadataRow> = {}): NewMetadataRow {
  return {
    reference_type: 'API',
    reference_id: referenceId,
    key,
    name: key.toUpperCase(),
    format: 'STRING',
    value: `value of ${key}`,
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: metadata repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('metadata').execute();
    });

    it('stores every column and reads the metadata of a reference back by key', async () => {
      await insertMetadata(t.storage.db, metadata('a1', 'support', { value: null, format: 'MAIL' }));
      await insertMetadata(t.storage.db, metadata('a1', 'owner'));
      await insertMetadata(t.storage.db, metadata('a2', 'other'));
      await insertMetadata(t.storage.db, metadata('DEFAULT', 'owner', { reference_type: 'DEFAULT' }));

      const rows = await findMetadataOfReference(t.storage.db, 'API', 'a1');

      expect(rows).toEqual([
        metadata('a1', 'owner'),
        metadata('a1', 'support', { value: null, format: 'MAIL' }),
      ]);
      expect(await findMetadata(t.storage.db, 'DEFAULT', 'DEFAULT', 'owner')).toMatchObject({
        name: 'OWNER',
      });
      expect(await findMetadata(t.storage.db, 'API', 'a2', 'owner')).toBeUndefined();
    });

    it('refuses a second metadata with the same key on the same reference', async () => {
      await insertMetadata(t.storage.db, metadata('a1', 'k'));

      await expect(insertMetadata(t.storage.db, metadata('a1', 'k', { name: 'again' }))).rejects.toThrow();
      expect((await findMetadata(t.storage.db, 'API', 'a1', 'k'))?.name).toBe('K');
    });

    it('updates one metadata and answers the number of rows changed', async () => {
      await insertMetadata(t.storage.db, metadata('a1', 'k'));
      await insertMetadata(t.storage.db, metadata('a2', 'k'));

      const ref = { referenceType: 'API', referenceId: 'a1', key: 'k' };
      expect(await updateMetadata(t.storage.db, ref, { value: 'new', updated_at: NOW + 1 })).toBe(1);
      expect(await updateMetadata(t.storage.db, { ...ref, key: 'nope' }, { value: 'x' })).toBe(0);

      expect(await findMetadata(t.storage.db, 'API', 'a1', 'k')).toMatchObject({
        value: 'new',
        updated_at: NOW + 1,
      });
      expect(await findMetadata(t.storage.db, 'API', 'a2', 'k')).toMatchObject({ value: 'value of k' });
    });

    it('deletes one metadata, or all those of a reference', async () => {
      await insertMetadata(t.storage.db, metadata('a1', 'k1'));
      await insertMetadata(t.storage.db, metadata('a1', 'k2'));
      await insertMetadata(t.storage.db, metadata('a2', 'k1'));

      expect(await deleteMetadata(t.storage.db, 'API', 'a1', 'k1')).toBe(1);
      expect((await findMetadataOfReference(t.storage.db, 'API', 'a1')).map((m) => m.key)).toEqual(['k2']);
      expect(await deleteMetadata(t.storage.db, 'API', 'a1')).toBe(1);
      expect(await findMetadataOfReference(t.storage.db, 'API', 'a1')).toEqual([]);
      expect(await findMetadataOfReference(t.storage.db, 'API', 'a2')).toHaveLength(1);
    });
  });
}
