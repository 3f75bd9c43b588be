import type { Kysely } from 'kysely';

/**
 * The optional dashboard widgets (issue 15): each request row keeps the browser (or client) and
 * operating system named by its User-Agent, and the country and city of its client address (with a
 * GeoIP database configured), worked out when the row is written. Rows written before keep null.
 */
const COLUMNS = ['user_agent_name', 'os_name', 'geo_country', 'geo_city'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('requests').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [...COLUMNS].reverse())
    await db.schema.alterTable('requests').dropColumn(column).execute();
}
