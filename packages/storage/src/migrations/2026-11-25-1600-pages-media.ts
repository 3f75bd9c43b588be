import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Documentation pages (issue 13): a page's description and the time of its next scheduled fetch from
 * its external source, and the media (images) uploaded for the documentation of an API or the portal.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pages').addColumn('description', 'text').execute();
  await db.schema.alterTable('pages').addColumn('next_fetch_at', 'bigint').execute();
  await db.schema
    .createTable('media')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_pk', ['reference_type', 'reference_id', 'hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media').ifExists().execute();
  await db.schema.alterTable('pages').dropColumn('next_fetch_at').execute();
  await db.schema.alterTable('pages').dropColumn('description').execute();
}
