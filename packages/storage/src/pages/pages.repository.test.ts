import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  claimPageFetch,
  clearHomepageExcept,
  deletePageById,
  deletePagesOfReference,
  findChildPages,
  findPagesDueForFetch,
  findPageById,
  findPagesOfReference,
  insertPage,
  removeExcludedGroupFromPages,
  updatePage,
} from './pages.repository.js';
import type { NewPageRow } from './pages.table.js';

const NOW = 1_790_000_000_000;

function page(id: string, changes: Partial<NewPageRow> = {}): NewPageRow {
  return {
    id,
    reference_type: 'API',
    reference_id: 'api1',
    name: `Page ${id}`,
    type: 'MARKDOWN',
    content: '# Hello',
    last_contributor: null,
    order: 0,
    published: 0,
    homepage: 0,
    parent_id: null,
    source: null,
    configuration: '{}',
    excluded_groups: '[]',
    metadata: '{}',
    description: null,
    next_fetch_at: null,
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: pages repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('pages').execute();
    });

    it('stores every column and reads the page back', async () => {
      const row = page('p1', {
        type: 'SWAGGER',
        content: 'openapi: 3.0.0',
        last_contributor: 'u1',
        order: 3,
        published: 1,
        homepage: 1,
        parent_id: 'f1',
        source: '{"type":"http"}',
        configuration: '{"tryIt":"true"}',
        excluded_groups: '["g1"]',
        metadata: '{"edit_url":"x"}',
      });
      await insertPage(t.storage.db, row);

      expect(await findPageById(t.storage.db, 'p1')).toEqual(row);
      expect(await findPageById(t.storage.db, 'p2')).toBeUndefined();
    });

    it('lists the pages of a reference in their order, filtered by type and publication', async () => {
      await insertPage(t.storage.db, page('p1', { order: 2, published: 1 }));
      await insertPage(t.storage.db, page('p2', { order: 1, type: 'SWAGGER', published: 1 }));
      await insertPage(t.storage.db, page('p3', { order: 0 }));
      await insertPage(t.storage.db, page('p4', { reference_id: 'api2' }));

      const ids = async (filter = {}) =>
        (await findPagesOfReference(t.storage.db, 'API', 'api1', filter)).map((p) => p.id);

      expect(await ids()).toEqual(['p3', 'p2', 'p1']);
      expect(await ids({ type: 'MARKDOWN' })).toEqual(['p3', 'p1']);
      expect(await ids({ published: true })).toEqual(['p2', 'p1']);
      expect(await ids({ type: 'MARKDOWN', published: false })).toEqual(['p3']);
    });

    it('takes a deleted group out of the excluded groups of every page, and of those only', async () => {
      await insertPage(t.storage.db, page('p1', { excluded_groups: '["g1","g2"]' }));
      await insertPage(
        t.storage.db,
        page('p2', { excluded_groups: '["g1"]', reference_type: 'ENVIRONMENT' }),
      );
      await insertPage(t.storage.db, page('p3', { excluded_groups: '["g10"]' }));

      expect(await removeExcludedGroupFromPages(t.storage.db, 'g1', NOW + 5)).toBe(2);

      const groups = async (id: string) => (await findPageById(t.storage.db, id))?.excluded_groups;
      expect(await groups('p1')).toBe('["g2"]');
      expect(await groups('p2')).toBe('[]');
      expect(await groups('p3')).toBe('["g10"]');
      expect((await findPageById(t.storage.db, 'p3'))?.updated_at).toBe(NOW);
      expect(await removeExcludedGroupFromPages(t.storage.db, 'g1', NOW + 6)).toBe(0);
    });

    it('updates the given columns of one page', async () => {
      await insertPage(t.storage.db, page('p1'));
      await insertPage(t.storage.db, page('p2'));

      expect(await updatePage(t.storage.db, 'p1', { content: 'new', updated_at: NOW + 1 })).toBe(1);
      expect(await updatePage(t.storage.db, 'nope', { content: 'x' })).toBe(0);

      expect(await findPageById(t.storage.db, 'p1')).toMatchObject({ content: 'new', updated_at: NOW + 1 });
      expect(await findPageById(t.storage.db, 'p2')).toMatchObject({ content: '# Hello', updated_at: NOW });
    });

    it('lists the children of a folder or of the root, and clears other homepages', async () => {
      await insertPage(t.storage.db, page('p1', { order: 1, homepage: 1 }));
      await insertPage(t.storage.db, page('p2', { order: 0, parent_id: 'p1' }));
      await insertPage(t.storage.db, page('p3', { order: 0, homepage: 1 }));
      await insertPage(t.storage.db, page('p4', { reference_id: 'api2', homepage: 1 }));

      const ids = async (parent: string | null) =>
        (await findChildPages(t.storage.db, 'API', 'api1', parent)).map((p) => p.id);
      expect(await ids(null)).toEqual(['p3', 'p1']);
      expect(await ids('p1')).toEqual(['p2']);

      await clearHomepageExcept(t.storage.db, 'API', 'api1', 'p3');
      expect((await findPageById(t.storage.db, 'p1'))?.homepage).toBe(0);
      expect((await findPageById(t.storage.db, 'p3'))?.homepage).toBe(1);
      expect((await findPageById(t.storage.db, 'p4'))?.homepage).toBe(1);
      expect(await deletePageById(t.storage.db, 'p2')).toBe(1);
      expect(await ids('p1')).toEqual([]);
    });

    it('claims a due scheduled fetch once', async () => {
      await insertPage(t.storage.db, page('p1', { next_fetch_at: NOW - 1 }));
      await insertPage(t.storage.db, page('p2', { next_fetch_at: NOW + 1000 }));

      expect((await findPagesDueForFetch(t.storage.db, NOW)).map((p) => p.id)).toEqual(['p1']);
      expect(await claimPageFetch(t.storage.db, 'p1', NOW - 1, NOW + 60_000)).toBe(true);
      expect(await claimPageFetch(t.storage.db, 'p1', NOW - 1, NOW + 60_000)).toBe(false);
      expect(await findPagesDueForFetch(t.storage.db, NOW)).toEqual([]);
    });

    it('deletes the pages of one reference only', async () => {
      await insertPage(t.storage.db, page('p1'));
      await insertPage(t.storage.db, page('p2'));
      await insertPage(t.storage.db, page('p3', { reference_id: 'api2' }));

      expect(await deletePagesOfReference(t.storage.db, 'API', 'api1')).toBe(2);
      expect(await findPagesOfReference(t.storage.db, 'API', 'api1')).toEqual([]);
      expect(await findPagesOfReference(t.storage.db, 'API', 'api2')).toHaveLength(1);
    });
  });
}
