import type { Kysely } from 'kysely';

/**
 * Dictionaries (issue 12): key/value maps that gateways' expressions read once deployed, and the
 * leases of the management scheduler (one process at a time runs the scheduled jobs).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dictionaries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('provider', 'text')
    .addColumn('trigger_rate', 'integer')
    .addColumn('trigger_unit', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deployed_at', 'bigint')
    .addColumn('deployed_properties', 'text')
    .addColumn('deploy_seq', 'bigint')
    .addColumn('next_poll_at', 'bigint')
    .execute();
  await db.schema
    .createTable('scheduler_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scheduler_leases').ifExists().execute();
  await db.schema.dropTable('dictionaries').ifExists().execute();
}
