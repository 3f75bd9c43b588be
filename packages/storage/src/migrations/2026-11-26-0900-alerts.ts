import type { Kysely } from 'kysely';

/**
 * Alerts of APIs, applications and the platform (issue 17): a rule on the reported metrics (an error
 * rate, a count of failed health checks...) that the scheduler evaluates, and the history of its state
 * changes (triggered, resolved).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('metric_type', 'text', (c) => c.notNull())
    .addColumn('threshold_type', 'text', (c) => c.notNull())
    .addColumn('threshold', 'double precision', (c) => c.notNull())
    .addColumn('plan', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('OK'))
    .addColumn('evaluated_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alerts_reference')
    .on('alerts')
    .columns(['reference_type', 'reference_id'])
    .execute();
  await db.schema
    .createTable('alert_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alert_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('threshold', 'double precision', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_events_alert')
    .on('alert_events')
    .columns(['alert_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alert_events').ifExists().execute();
  await db.schema.dropTable('alerts').ifExists().execute();
}
