import type { Kysely } from 'kysely';

/**
 * Distributed tracing (issue 23): each request row keeps the W3C trace id of its call (32 hex
 * characters), so that the console's log detail shows it and the logs filter finds the calls of a
 * trace. Null when the gateway traced nothing (tracing off) for the call.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('requests').addColumn('trace_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('requests').dropColumn('trace_id').execute();
}
