import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { DAY_MS, PARTITIONED_TABLES, daysBetween, ensureDayPartitions } from '../requests/partitions.js';
import type { RollupTier } from '../requests/rollups.js';
import { HISTOGRAM_COLUMNS, ROLLUP_METRICS, ROLLUP_TIERS, rollupBackfillSql } from '../requests/rollups.js';
import { isPostgres } from './dialect.js';

/**
 * Analytics storage that scales (issue 15 item 2): rollups of the requests per minute and per ten
 * minutes (see ROLLUP_TIERS), built from the rows already there; on PostgreSQL the request and log tables become range-partitioned by day, their
 * rows moved into the new tables (nothing is lost).
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const tier of ROLLUP_TIERS) await createTier(db, tier);
  if (isPostgres(db)) await partitionByDay(db);
  for (const tier of ROLLUP_TIERS) await sql.raw(rollupBackfillSql(tier)).execute(db);
}

async function createTier(db: Kysely<any>, tier: RollupTier): Promise<void> {
  let table = db.schema
    .createTable(tier.table)
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull());
  for (const d of tier.dimensions) {
    table = table.addColumn(d, d === 'status' ? 'integer' : 'text', (c) =>
      d === 'status' || d === 'method' ? c.notNull() : c,
    );
  }
  table = table.addColumn('count', 'bigint', (c) => c.notNull());
  for (const m of ROLLUP_METRICS) {
    table = table
      .addColumn(`${m}_sum`, 'bigint', (c) => c.notNull())
      .addColumn(`${m}_min`, 'bigint', (c) => c.notNull())
      .addColumn(`${m}_max`, 'bigint', (c) => c.notNull());
  }
  for (const h of HISTOGRAM_COLUMNS) table = table.addColumn(h, 'bigint', (c) => c.notNull().defaultTo(0));
  await table.addPrimaryKeyConstraint(`${tier.table}_pk`, ['minute', 'key']).execute();
  for (const d of ['api_id', 'application_id'] as const) {
    if (!tier.dimensions.includes(d)) continue;
    await db.schema.createIndex(`${tier.table}_${d}_ix`).on(tier.table).columns([d, 'minute']).execute();
  }
}

/** Each table into a partitioned one of the same columns, the old rows moved over, indexes rebuilt. */
async function partitionByDay(db: Kysely<any>): Promise<void> {
  await sql`drop index requests_timestamp_ix, requests_api_ix, requests_application_ix, request_logs_timestamp_ix`.execute(
    db,
  );
  for (const t of PARTITIONED_TABLES) {
    const old = `${t}_unpartitioned`;
    await sql`alter table ${sql.id(t)} rename to ${sql.id(old)}`.execute(db);
    await sql`alter table ${sql.id(old)} drop constraint ${sql.id(`${t}_pkey`)}`.execute(db);
    await sql`create table ${sql.id(t)} (like ${sql.id(old)} including defaults) partition by range ("timestamp")`.execute(
      db,
    );
    // A partitioned table's unique keys hold its partition column.
    await sql`alter table ${sql.id(t)} add constraint ${sql.id(`${t}_pkey`)} primary key ("id", "timestamp")`.execute(
      db,
    );
    await sql`create table ${sql.id(`${t}_default`)} partition of ${sql.id(t)} default`.execute(db);
    const { rows } = await sql<{ day: string | number }>`
      select distinct "timestamp" / ${sql.lit(DAY_MS)} as day from ${sql.id(old)}`.execute(db);
    const today = Math.floor(Date.now() / DAY_MS);
    const days = [...rows.map((r) => Number(r.day)), ...daysBetween(today * DAY_MS, (today + 2) * DAY_MS)];
    await ensureDayPartitions(db, t, days);
    await sql`insert into ${sql.id(t)} select * from ${sql.id(old)}`.execute(db);
    await sql`drop table ${sql.id(old)}`.execute(db);
  }
  await db.schema.createIndex('requests_timestamp_ix').on('requests').column('timestamp').execute();
  await db.schema.createIndex('requests_api_ix').on('requests').columns(['api_id', 'timestamp']).execute();
  await db.schema
    .createIndex('requests_application_ix')
    .on('requests')
    .columns(['application_id', 'timestamp'])
    .execute();
  await db.schema.createIndex('request_logs_timestamp_ix').on('request_logs').column('timestamp').execute();
}
