import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * PostgreSQL keeps `requests` and `request_logs` range-partitioned by day of `timestamp` (UTC): a
 * partition per day (`requests_p20261126`), created ahead by the retention job, and a default
 * partition that catches rows of days without one (nothing a gateway reports is ever refused).
 * Retention drops whole days. SQLite has no partitions: retention deletes rows.
 */
/** Migrations and the retention job both call these: any schema type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKysely = Kysely<any>;

export const PARTITIONED_TABLES = ['requests', 'request_logs'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export const DAY_MS = 86_400_000;

const dayName = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
const partitionName = (table: PartitionedTable, day: number) => `${table}_p${dayName(day)}`;

/** The day partitions of a table: day number (UTC days since the epoch) of each. */
export async function listDayPartitions(
  db: AnyKysely,
  table: PartitionedTable,
): Promise<Map<number, string>> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    join pg_namespace n on n.oid = p.relnamespace
    where p.relname = ${table} and n.nspname = current_schema()`.execute(db);
  const days = new Map<number, string>();
  const pattern = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`);
  for (const { name } of rows) {
    const m = pattern.exec(name);
    if (m) days.set(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS, name);
  }
  return days;
}

/**
 * Creates the partition of each given day that has none. Rows of that day already caught by the
 * default partition move into the new one in the same transaction (attaching checks the default).
 */
export async function ensureDayPartitions(
  db: AnyKysely,
  table: PartitionedTable,
  days: Iterable<number>,
): Promise<string[]> {
  const existing = await listDayPartitions(db, table);
  const created: string[] = [];
  for (const day of [...new Set(days)].sort((a, b) => a - b)) {
    if (existing.has(day)) continue;
    const name = partitionName(table, day);
    const from = day * DAY_MS;
    const to = from + DAY_MS;
    const create = async (trx: AnyKysely) => {
      await sql`create table ${sql.id(name)} (like ${sql.id(table)} including defaults)`.execute(trx);
      await sql`
        with moved as (delete from ${sql.id(`${table}_default`)}
          where "timestamp" >= ${from} and "timestamp" < ${to} returning *)
        insert into ${sql.id(name)} select * from moved`.execute(trx);
      await sql`alter table ${sql.id(table)} attach partition ${sql.id(name)}
        for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
    };
    // In a migration the caller's transaction holds it all; otherwise one transaction per day.
    if (db.isTransaction) await create(db);
    else await db.transaction().execute(create);
    created.push(name);
  }
  return created;
}

/** Drops the day partitions wholly before `cutoff` and deletes the default partition's older rows. */
export async function dropDayPartitionsBefore(
  db: AnyKysely,
  table: PartitionedTable,
  cutoff: number,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const [day, name] of await listDayPartitions(db, table)) {
    if ((day + 1) * DAY_MS > cutoff) continue;
    await sql`drop table ${sql.id(name)}`.execute(db);
    dropped.push(name);
  }
  await sql`delete from ${sql.id(`${table}_default`)} where "timestamp" < ${cutoff}`.execute(db);
  return dropped.sort();
}

/** The UTC day numbers from the day of `from` to the day of `to`, both included. */
export function daysBetween(from: number, to: number): number[] {
  const days: number[] = [];
  for (let d = Math.floor(from / DAY_MS); d <= Math.floor(to / DAY_MS); d++) days.push(d);
  return days;
}
