import type { Kysely } from 'kysely';

/**
 * Throttling shared by every management node (issue 22): failed sign-ins per account and per address,
 * and the mails and registrations counted per email and per address, so that two nodes behind one load
 * balancer see the same counts. Additive: older versions ignore these tables.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('throttle_counters')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('throttle_counters_pk', ['scope', 'key'])
    .execute();
  await db.schema
    .createTable('rate_hits')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_hits_key').on('rate_hits').columns(['scope', 'key', 'at']).execute();
  await db.schema.createIndex('rate_hits_at').on('rate_hits').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_hits').execute();
  await db.schema.dropTable('throttle_counters').execute();
}
