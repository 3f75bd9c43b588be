import type { Kysely } from 'kysely';

/** Social and enterprise identity providers (google, github, oidc, ...) used to sign in. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('identity_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email_required', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('configuration', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('group_mappings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('role_mappings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('user_profile_mapping', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('identity_providers').ifExists().execute();
}
