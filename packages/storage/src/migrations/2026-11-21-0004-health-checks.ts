import type { Kysely } from 'kysely';

/** One row per health check run by a gateway on an endpoint. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('health_checks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('gateway', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('transition', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_time', 'integer', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('request', 'text')
    .addColumn('response', 'text')
    .execute();
  await db.schema
    .createIndex('health_checks_api_ix')
    .on('health_checks')
    .columns(['api_id', 'timestamp'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('health_checks').ifExists().execute();
}
