import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findAllTags, insertTag } from './tags.repository.js';
import type { NewTagRow } from './tags.table.js';

function tag(id: string, name: string): NewTagRow {
  return { id, name, restricted_groups: '[]' };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: tags repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('tags').execute();
    });

    describe('insertTag', () => {
      it('stores every column of the tag', async () => {
        const row = {
          id: 'eu',
          name: 'Europe',
          description: 'EU gateways',
          restricted_groups: '["g1","g2"]',
        };
        await insertTag(t.storage.db, row);

        expect(await findAllTags(t.storage.db)).toEqual([row]);
      });

      it('leaves the description null unless given', async () => {
        await insertTag(t.storage.db, tag('eu', 'Europe'));

        expect(await findAllTags(t.storage.db)).toEqual([
          { id: 'eu', name: 'Europe', description: null, restricted_groups: '[]' },
        ]);
      });

      it('refuses a second tag with the same id', async () => {
        await insertTag(t.storage.db, tag('eu', 'Europe'));

        await expect(insertTag(t.storage.db, tag('eu', 'Other'))).rejects.toThrow();
        expect((await findAllTags(t.storage.db)).map((r) => r.name)).toEqual(['Europe']);
      });
    });

    describe('findAllTags', () => {
      it('returns every tag by name', async () => {
        await insertTag(t.storage.db, tag('t1', 'Internal'));
        await insertTag(t.storage.db, tag('t2', 'Europe'));
        await insertTag(t.storage.db, tag('t3', 'Public'));

        expect((await findAllTags(t.storage.db)).map((r) => r.id)).toEqual(['t2', 't1', 't3']);
      });

      it('returns nothing when there is no tag', async () => {
        expect(await findAllTags(t.storage.db)).toEqual([]);
      });
    });
  });
}
