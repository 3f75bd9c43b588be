import type { Kysely } from 'kysely';

import { isPostgres } from './dialect.js';

/**
 * The first schema. Portable SQL: JSON is stored as text, booleans as integers 0/1, instants as
 * epoch milliseconds (bigint), so one set of repositories serves SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('firstname', 'text')
    .addColumn('lastname', 'text')
    .addColumn('password', 'text')
    .addColumn('picture', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
    .addColumn('login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_connection_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('users_source_uq', ['source', 'source_id'])
    .execute();
  await db.schema.createIndex('users_email_ix').on('users').column('email').execute();

  await db.schema
    .createTable('roles')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_system', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('roles_pk', ['scope', 'name'])
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('member_type', 'text', (c) => c.notNull())
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('role_scope', 'text', (c) => c.notNull())
    .addColumn('role_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('memberships_uq', [
      'member_id',
      'member_type',
      'reference_type',
      'reference_id',
      'role_scope',
    ])
    .execute();
  await db.schema
    .createIndex('memberships_reference_ix')
    .on('memberships')
    .columns(['reference_type', 'reference_id'])
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('event_rules', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('max_invitation', 'integer')
    .addColumn('lock_api_role', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lock_application_role', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('system_invitation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email_invitation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('parameters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('restricted_groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('apis')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('context_path', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('STOPPED'))
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('PRIVATE'))
    .addColumn('lifecycle_state', 'text', (c) => c.notNull().defaultTo('CREATED'))
    .addColumn('picture', 'text')
    .addColumn('labels', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('views', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('deployed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('apis_name_ix').on('apis').column('name').execute();
  await db.schema.createIndex('apis_context_path_ix').on('apis').column('context_path').execute();

  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('security', 'text', (c) => c.notNull())
    .addColumn('security_definition', 'text')
    .addColumn('validation', 'text', (c) => c.notNull().defaultTo('MANUAL'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('API'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('STAGING'))
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('characteristics', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('paths', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('excluded_groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('comment_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment_message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .execute();
  await db.schema.createIndex('plans_api_ix').on('plans').column('api_id').execute();

  await db.schema
    .createTable('applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('SIMPLE'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
    .addColumn('client_id', 'text')
    .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('picture', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('applications_client_id_ix').on('applications').column('client_id').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('request', 'text')
    .addColumn('reason', 'text')
    .addColumn('client_id', 'text')
    .addColumn('subscribed_by', 'text')
    .addColumn('processed_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint')
    .addColumn('starting_at', 'bigint')
    .addColumn('ending_at', 'bigint')
    .addColumn('paused_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .execute();
  await db.schema.createIndex('subscriptions_api_ix').on('subscriptions').column('api_id').execute();
  await db.schema
    .createIndex('subscriptions_application_ix')
    .on('subscriptions')
    .column('application_id')
    .execute();
  await db.schema.createIndex('subscriptions_updated_ix').on('subscriptions').column('updated_at').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('api_id', 'text', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'bigint')
    .addColumn('expire_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_subscription_ix').on('api_keys').column('subscription_id').execute();
  await db.schema.createIndex('api_keys_updated_ix').on('api_keys').column('updated_at').execute();

  await db.schema
    .createTable('pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('last_contributor', 'text')
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('homepage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent_id', 'text')
    .addColumn('source', 'text')
    .addColumn('configuration', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('excluded_groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pages_reference_ix')
    .on('pages')
    .columns(['reference_type', 'reference_id'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('api_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_api_ix').on('events').columns(['api_id', 'created_at']).execute();

  await db.schema
    .createTable('audits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reference_type', 'text', (c) => c.notNull())
    .addColumn('reference_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('patch', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audits_created_ix').on('audits').column('created_at').execute();
  await db.schema
    .createIndex('audits_reference_ix')
    .on('audits')
    .columns(['reference_type', 'reference_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user_ix').on('notifications').column('user_id').execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'mails',
    'tokens',
    'notifications',
    'audits',
    'events',
    'pages',
    'api_keys',
    'subscriptions',
    'applications',
    'plans',
    'apis',
    'tags',
    'parameters',
    'groups',
    'memberships',
    'roles',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
