import type { Kysely } from 'kysely';

/** Sessions ended by a logout before their expiry: their tokens are refused until they expire. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('revoked_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('revoked_sessions').ifExists().execute();
}
