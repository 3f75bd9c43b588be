import type { Kysely } from 'kysely';

/**
 * Ending all sessions of a user at once (issue 11: a password reset or change ends the others):
 * sessions opened before `sessions_valid_after` are refused, except `kept_session_id`, the session
 * that changed the password itself.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('sessions_valid_after', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('kept_session_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('kept_session_id').execute();
  await db.schema.alterTable('users').dropColumn('sessions_valid_after').execute();
}
