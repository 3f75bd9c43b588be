import type { Kysely } from 'kysely';

/**
 * Issue 12, platform settings: views (with the default view `all`), tenants, entrypoints and the API
 * portal headers (with the defaults that show an API's version, owner and dates).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_view', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('picture', 'text')
    .addColumn('highlight_api', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('views')
    .values({
      id: 'all',
      name: 'All',
      description: 'Default view',
      order: 0,
      default_view: 1,
      hidden: 0,
      created_at: 0,
      updated_at: 0,
    })
    .execute();

  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .execute();

  await db.schema
    .createTable('entrypoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('api_headers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('order', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  const defaults = [
    ['api.version', '${api.version}'],
    ['api.owner', '${api.primaryOwner.displayName}'],
    ['api.createdAt', '${api.createdAt}'],
    ['api.updatedAt', '${api.updatedAt}'],
  ];
  await db
    .insertInto('api_headers')
    .values(
      defaults.map(([name, value], index) => ({
        id: `default-${index + 1}`,
        name,
        value,
        order: index + 1,
        created_at: 0,
        updated_at: 0,
      })),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_headers').execute();
  await db.schema.dropTable('entrypoints').execute();
  await db.schema.dropTable('tenants').execute();
  await db.schema.dropTable('views').execute();
}
