import type { Kysely } from 'kysely';

/**
 * Notification settings of APIs, applications and the platform (issue 17), and the outbox of their
 * mail and webhook deliveries: each delivery is a row, tried again with backoff until sent or failed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('config_type', 'text', (c) => c.notNull())
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('notifier', 'text')
    .addColumn('config', 'text')
    .addColumn('use_system_proxy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hooks', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_settings_reference')
    .on('notification_settings')
    .columns(['reference_type', 'reference_id'])
    .execute();
  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('setting_id', 'text', (c) => c.notNull())
    .addColumn('notifier', 'text', (c) => c.notNull())
    .addColumn('hook', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('use_system_proxy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_deliveries').ifExists().execute();
  await db.schema.dropTable('notification_settings').ifExists().execute();
}
