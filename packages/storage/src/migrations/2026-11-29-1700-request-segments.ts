import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Issue 18: gateways append their reports as segments, a part of about a hundred requests encoded by
 * column in one row, and the management server's indexer writes the `requests` rows from them
 * (request-segments.ts). The id gives the order in which segments are indexed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('request_segments')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_timestamp', 'bigint', (c) => c.notNull())
    .addColumn('last_timestamp', 'bigint', (c) => c.notNull())
    .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('request_segments').execute();
}
