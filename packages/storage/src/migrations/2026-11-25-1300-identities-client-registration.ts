import type { Kysely } from 'kysely';

/**
 * Identity provider mappings and client registration (issue 12): the source of a membership (the
 * identity provider whose mappings gave it, refreshed at each sign-in), the client registration
 * providers (OpenID Connect Dynamic Client Registration) and what each registered application keeps
 * of its registration (RFC 7592 registration access token and client URI).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('source', 'text').execute();
  await db.schema
    .createTable('client_registration_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('discovery_endpoint', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('application_registrations')
    .addColumn('application_id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('registration_access_token', 'text')
    .addColumn('registration_client_uri', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('application_registrations').ifExists().execute();
  await db.schema.dropTable('client_registration_providers').ifExists().execute();
  await db.schema.alterTable('memberships').dropColumn('source').execute();
}
