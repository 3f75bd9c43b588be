import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * What the gateways' sync needs to see every change exactly once whatever the order of commits
 * (issue 21): on PostgreSQL, `sync_tx` holds the id of the transaction that last wrote an event, a
 * key or a subscription (set by a trigger), so a gateway re-reads what the transactions still running
 * at its previous read wrote. SQLite commits one writer at a time, in sequence order: the column stays
 * empty there. The instances also report the event sequence and the digest their gateway serves.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  for (const table of ['events', 'api_keys', 'subscriptions']) {
    await db.schema.alterTable(table).addColumn('sync_tx', 'bigint').execute();
    if (pg) await db.schema.createIndex(`${table}_sync_tx_ix`).on(table).column('sync_tx').execute();
  }
  await db.schema.alterTable('instances').addColumn('sync_seq', 'bigint').execute();
  await db.schema.alterTable('instances').addColumn('sync_digest', 'text').execute();
  if (!pg) return;
  await sql
    .raw(
      `create or replace function portico_sync_tx() returns trigger language plpgsql as $$
       begin new.sync_tx := txid_current(); return new; end $$`,
    )
    .execute(db);
  for (const table of ['events', 'api_keys', 'subscriptions'])
    await sql
      .raw(
        `create trigger ${table}_sync_tx before insert or update on ${table}
         for each row execute function portico_sync_tx()`,
      )
      .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  for (const table of ['events', 'api_keys', 'subscriptions']) {
    if (pg) await sql.raw(`drop trigger if exists ${table}_sync_tx on ${table}`).execute(db);
    if (pg) await db.schema.dropIndex(`${table}_sync_tx_ix`).ifExists().execute();
    await db.schema.alterTable(table).dropColumn('sync_tx').execute();
  }
  if (pg) await sql.raw('drop function if exists portico_sync_tx()').execute(db);
  await db.schema.alterTable('instances').dropColumn('sync_seq').execute();
  await db.schema.alterTable('instances').dropColumn('sync_digest').execute();
}
