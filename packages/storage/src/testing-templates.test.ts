import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from './migrations/index.js';
import { createTestDatabase, testDialects } from './testing.js';

describe.each(await testDialects())('test databases copied from the migrated template (%s)', (dialect) => {
  it('are at the latest schema and independent of each other', async () => {
    const [first, second] = [await createTestDatabase(dialect), await createTestDatabase(dialect)];
    try {
      // Nothing left to apply: the copy holds every migration.
      expect(await migrateToLatest(first.storage.db)).toEqual([]);
      await sql`insert into tags (id, name, description, restricted_groups) values ('t1', 'one', '', '[]')`.execute(
        first.storage.db,
      );
      const inSecond = await sql<{ n: number }>`select count(*) as n from tags`.execute(second.storage.db);
      expect(Number(inSecond.rows[0]?.n)).toBe(0);
    } finally {
      await first.destroy();
      await second.destroy();
    }
  });
});
