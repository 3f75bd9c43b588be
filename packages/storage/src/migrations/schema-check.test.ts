import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.js';
import { SchemaTooNewError, migrateToLatest } from './index.js';

/** A database that a newer version migrated is refused before anything is changed (issue 22, item 6). */
describe('schema version check', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
  });
  afterAll(() => t?.destroy());

  it('passes a database this version migrated', async () => {
    await expect(migrateToLatest(t.storage.db)).resolves.toEqual([]);
  });

  it('refuses a schema with a migration this version does not know, naming it', async () => {
    await sql`insert into portico_migrations (name, timestamp) values (${'2099-01-01-0000-contract-from-the-future'}, ${new Date().toISOString()})`.execute(
      t.storage.db,
    );
    const error = await migrateToLatest(t.storage.db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaTooNewError);
    expect((error as Error).message).toBe(
      'The database schema is newer than this version of Portico understands: it has migration ' +
        '2099-01-01-0000-contract-from-the-future, which this version does not know. Run the version that applied ' +
        'it or a later one (README, "Upgrading").',
    );
  });
});
