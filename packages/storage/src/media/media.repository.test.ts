import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findMedia, insertMediaOnce } from './media.repository.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: media repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });

    it('stores the bytes of a file once and reads them back by reference and hash', async () => {
      const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
      const row = {
        hash: 'h1',
        reference_type: 'API',
        reference_id: 'api1',
        file_name: 'a.png',
        content_type: 'image/png',
        size: data.length,
        data,
        created_at: 1,
      };
      await insertMediaOnce(t.storage.db, row);
      await insertMediaOnce(t.storage.db, { ...row, file_name: 'again.png', created_at: 2 });

      const found = await findMedia(t.storage.db, 'API', 'api1', 'h1');
      expect(found).toMatchObject({ file_name: 'a.png', content_type: 'image/png', size: 6, created_at: 1 });
      expect(Buffer.compare(Buffer.from(found!.data), data)).toBe(0);
      expect(await findMedia(t.storage.db, 'API', 'api2', 'h1')).toBeUndefined();
    });
  });
}
