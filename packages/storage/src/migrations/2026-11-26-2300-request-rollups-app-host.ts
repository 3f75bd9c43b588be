import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { APP_HOST_TIER, rollupBackfillSql } from '../requests/rollups.js';

/**
 * A rollup tier per ten minutes, API, application and host (issue 15 item 2): the platform
 * dashboard's hits by application and the API dashboard's top hosts read it instead of the
 * API-application-plan-tenant-status tier or the raw rows. Only the count is kept (narrow rows, cheap for
 * the reporter's writer to upsert). Built from the requests already there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = APP_HOST_TIER.table;
  const table = db.schema
    .createTable(t)
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('api_id', 'text')
    .addColumn('application_id', 'text')
    .addColumn('host', 'text')
    .addColumn('count', 'bigint', (c) => c.notNull());
  await table.addPrimaryKeyConstraint(`${t}_pk`, ['minute', 'key']).execute();
  await db.schema.createIndex(`${t}_api_id_ix`).on(t).columns(['api_id', 'minute']).execute();
  await db.schema.createIndex(`${t}_application_id_ix`).on(t).columns(['application_id', 'minute']).execute();
  await sql.raw(rollupBackfillSql(APP_HOST_TIER)).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable(APP_HOST_TIER.table).execute();
}
