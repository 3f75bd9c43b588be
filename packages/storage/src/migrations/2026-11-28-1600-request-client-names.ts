import type { Kysely } from 'kysely';

/**
 * The optional dashboard widgets user_agent_name and os_name (issue 15): each request row keeps the
 * browser (or client) and operating system named by its User-Agent, worked out when the row is
 * written. Rows written before keep null (shown as unknown).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('requests').addColumn('user_agent_name', 'text').execute();
  await db.schema.alterTable('requests').addColumn('os_name', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('requests').dropColumn('os_name').execute();
  await db.schema.alterTable('requests').dropColumn('user_agent_name').execute();
}
