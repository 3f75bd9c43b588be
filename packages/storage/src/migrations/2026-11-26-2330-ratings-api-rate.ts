import type { Kysely } from 'kysely';

/**
 * The portal's API lists carry each API's stars (issue 14): the count and sum of its rates, grouped by
 * API in the list query. This index covers that aggregate, so it reads no rating row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('ratings_api_rate').on('ratings').columns(['api_id', 'rate']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ratings_api_rate').execute();
}
