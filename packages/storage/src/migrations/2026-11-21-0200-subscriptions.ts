import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Plans, subscriptions, API keys and applications as the console manages them: sharding tags of a
 * plan, the moment the owner of a key was told it expires, one active application per client id, and
 * the indexes of the subscription lists (by plan, by application and plan).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema.alterTable('api_keys').addColumn('expiry_notified_at', 'bigint').execute();

  await db.schema.createIndex('subscriptions_plan_ix').on('subscriptions').column('plan_id').execute();
  await db.schema
    .createIndex('subscriptions_application_plan_ix')
    .on('subscriptions')
    .columns(['application_id', 'plan_id'])
    .execute();
  await db.schema.createIndex('api_keys_api_ix').on('api_keys').column('api_id').execute();
  await db.schema.createIndex('api_keys_expire_ix').on('api_keys').column('expire_at').execute();

  // A client id names one active application: the gateway finds OAuth2 and JWT subscriptions by it.
  await sql`create unique index applications_active_client_id_uq on applications (client_id) where status = 'ACTIVE' and client_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('applications_active_client_id_uq').ifExists().execute();
  await db.schema.dropIndex('api_keys_expire_ix').ifExists().execute();
  await db.schema.dropIndex('api_keys_api_ix').ifExists().execute();
  await db.schema.dropIndex('subscriptions_application_plan_ix').ifExists().execute();
  await db.schema.dropIndex('subscriptions_plan_ix').ifExists().execute();
  await db.schema.alterTable('api_keys').dropColumn('expiry_notified_at').execute();
  await db.schema.alterTable('plans').dropColumn('tags').execute();
}
