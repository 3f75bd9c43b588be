import type { Kysely } from 'kysely';

/** What the gateways write: one metrics row per request, optional logs, and their instances. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('gateway', 'text', (c) => c.notNull())
    .addColumn('api_id', 'text')
    .addColumn('application_id', 'text')
    .addColumn('plan_id', 'text')
    .addColumn('subscription_id', 'text')
    .addColumn('api_key', 'text')
    .addColumn('user', 'text')
    .addColumn('tenant', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('mapped_path', 'text')
    .addColumn('host', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('request_content_length', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('response_content_length', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('response_time', 'integer', (c) => c.notNull())
    .addColumn('api_response_time', 'integer', (c) => c.notNull())
    .addColumn('latency', 'integer', (c) => c.notNull())
    .addColumn('endpoint', 'text')
    .addColumn('remote_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('security_type', 'text')
    .addColumn('error_key', 'text')
    .addColumn('message', 'text')
    .addColumn('has_log', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('requests_timestamp_ix').on('requests').column('timestamp').execute();
  await db.schema.createIndex('requests_api_ix').on('requests').columns(['api_id', 'timestamp']).execute();
  await db.schema
    .createIndex('requests_application_ix')
    .on('requests')
    .columns(['application_id', 'timestamp'])
    .execute();

  await db.schema
    .createTable('request_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('api_id', 'text')
    .addColumn('application_id', 'text')
    .addColumn('client_request', 'text')
    .addColumn('proxy_request', 'text')
    .addColumn('client_response', 'text')
    .addColumn('proxy_response', 'text')
    .execute();
  await db.schema.createIndex('request_logs_timestamp_ix').on('request_logs').column('timestamp').execute();

  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tenant', 'text')
    .addColumn('plugins', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('system_properties', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('operating_system_name', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('stopped_at', 'bigint')
    .addColumn('monitoring', 'text')
    .addColumn('dropped_reports', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('instances_started_ix').on('instances').column('started_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['instances', 'request_logs', 'requests']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
