import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * APIs: sharding tags as a column (the API list shows them without reading definitions), the context
 * paths of every API (uniqueness check, virtual hosts included), metadata (per API, and the platform
 * defaults under reference DEFAULT), and the ordered top APIs of the portal.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('apis')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('api_context_paths')
    .addColumn('api_id', 'text', (c) => c.notNull())
    // '' when the path holds for any host.
    .addColumn('host', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('path', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_context_paths_pk', ['api_id', 'host', 'path'])
    .execute();
  await db.schema.createIndex('api_context_paths_path_ix').on('api_context_paths').column('path').execute();
  await sql`insert into api_context_paths (api_id, host, path) select id, '', context_path from apis`.execute(
    db,
  );

  await db.schema
    .createTable('metadata')
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('metadata_pk', ['reference_type', 'reference_id', 'key'])
    .execute();

  await db.schema
    .createTable('top_apis')
    .addColumn('api_id', 'text', (c) => c.primaryKey())
    .addColumn('order', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('top_apis').ifExists().execute();
  await db.schema.dropTable('metadata').ifExists().execute();
  await db.schema.dropTable('api_context_paths').ifExists().execute();
  await db.schema.alterTable('apis').dropColumn('tags').execute();
}
