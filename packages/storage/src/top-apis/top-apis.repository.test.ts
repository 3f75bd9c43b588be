import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { deleteTopApi, findTopApis, replaceTopApis } from './top-apis.repository.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: top APIs repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });

    it('keeps the top APIs in the order given, replacing the previous list', async () => {
      await replaceTopApis(t.storage.db, ['x', 'y']);
      await replaceTopApis(t.storage.db, ['c', 'a', 'b']);

      expect(await findTopApis(t.storage.db)).toEqual([
        { api_id: 'c', order: 0 },
        { api_id: 'a', order: 1 },
        { api_id: 'b', order: 2 },
      ]);
    });

    it('removes one API from the list', async () => {
      await replaceTopApis(t.storage.db, ['a', 'b']);

      await deleteTopApi(t.storage.db, 'a');

      expect((await findTopApis(t.storage.db)).map((r) => r.api_id)).toEqual(['b']);
    });

    it('empties the list', async () => {
      await replaceTopApis(t.storage.db, ['a']);

      await replaceTopApis(t.storage.db, []);

      expect(await findTopApis(t.storage.db)).toEqual([]);
    });
  });
}
