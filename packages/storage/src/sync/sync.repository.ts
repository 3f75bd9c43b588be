import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import type { Database, Executor } from '../database.js';
import type { ApiKeyRow } from '../api-keys/api-keys.table.js';
import type { EventRow } from '../events/events.table.js';
import type { SubscriptionRow } from '../subscriptions/subscriptions.table.js';

/**
 * The queries of the gateways' sync: what is deployed (the latest deployment and lifecycle event of
 * each API) and the access rights (subscriptions and keys) that changed since the previous read.
 * Changes are found by commit, not by number or clock: on PostgreSQL by the transaction ids of the
 * writers (`sync_tx`) against the previous read's horizon; on SQLite, which commits one writer at a
 * time, by sequence for events and by a window of `updated_at` for keys and subscriptions.
 */

export const DEPLOYMENT_TYPES = ['PUBLISH_API', 'UNPUBLISH_API'] as const;
export const LIFECYCLE_TYPES = ['PUBLISH_API', 'UNPUBLISH_API', 'START_API', 'STOP_API'] as const;
/** `in (...)` lists are cut in parts of this size (SQLite and PostgreSQL parameter limits). */
const IN_LIST = 500;

/** Where the previous read stopped: what the next read looks for. */
export interface SyncCursor {
  /** The highest event sequence seen. */
  seq: number;
  /** PostgreSQL: the oldest transaction still running at the previous read (null on SQLite). */
  horizon: number | null;
  /** SQLite: the instant of the previous read (keys and subscriptions are read again from a window before it). */
  since: number;
}

/**
 * PostgreSQL: a statement of a sync read that runs longer is cancelled by the server (a lock held by a
 * migration, an overloaded server), so the read fails and its connection goes back to the pool
 * before the gateway gives the sync up (15 s), instead of staying busy behind it.
 */
export const SYNC_STATEMENT_TIMEOUT_MS = 10_000;

/**
 * Runs `read` as one consistent read: a READ ONLY transaction at REPEATABLE READ on PostgreSQL (every
 * query sees one snapshot), a deferred transaction on SQLite (a read snapshot of the WAL).
 */
export async function inSyncRead<T>(db: Kysely<Database>, read: (trx: Executor) => Promise<T>): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql`set local statement_timeout = ${sql.lit(SYNC_STATEMENT_TIMEOUT_MS)}`.execute(trx);
        return read(trx);
      });
  return db.connection().execute(async (conn) => {
    await sql`begin deferred`.execute(conn);
    try {
      const result = await read(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}

/** PostgreSQL: the oldest transaction still running for this read's snapshot; null on SQLite. */
export async function findSyncHorizon(db: Executor): Promise<number | null> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return null;
  const { rows } = await sql<{
    horizon: string | number;
  }>`select txid_snapshot_xmin(txid_current_snapshot()) as horizon`.execute(db);
  return Number(rows[0]!.horizon);
}

/** For each API, its latest PUBLISH_API/UNPUBLISH_API event and its latest START_API/STOP_API event. */
export async function findLatestLifecycleEvents(db: Executor): Promise<EventRow[]> {
  const latest = (types: readonly string[]) =>
    db
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('type', 'in', types)
      .where('api_id', 'is not', null)
      .groupBy('api_id');
  return db
    .selectFrom('events')
    .selectAll()
    .where((eb) =>
      eb.or([eb('seq', 'in', latest(DEPLOYMENT_TYPES)), eb('seq', 'in', latest(['START_API', 'STOP_API']))]),
    )
    .orderBy('seq')
    .execute();
}

/** The highest event sequence number (0 when there is none). */
export async function findLastEventSeq(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** A lifecycle event without its payload. */
export interface LifecycleRef {
  seq: number;
  type: string;
  api_id: string;
}

/** Lifecycle events committed since the cursor (and some seen already: the caller applies idempotently). */
export async function findLifecycleRefsSince(db: Executor, cursor: SyncCursor): Promise<LifecycleRef[]> {
  let q = db
    .selectFrom('events')
    .select(['seq', 'type', 'api_id'])
    .where('type', 'in', LIFECYCLE_TYPES)
    .where('api_id', 'is not', null);
  q = cursor.horizon === null ? q.where('seq', '>', cursor.seq) : q.where('sync_tx', '>=', cursor.horizon);
  const rows = await q.orderBy('seq').execute();
  return rows.map((r) => ({ seq: Number(r.seq), type: r.type, api_id: r.api_id! }));
}

/** For each API with lifecycle events: the sequence of its latest deployment and of its latest lifecycle event. */
export async function findLifecycleSeqs(
  db: Executor,
): Promise<{ api_id: string; deploy_seq: number | null; state_seq: number }[]> {
  const rows = await db
    .selectFrom('events')
    .select((eb) => [
      'api_id',
      eb.fn
        .max(
          eb
            .case()
            .when('type', 'in', DEPLOYMENT_TYPES)
            .then(eb.ref('seq'))
            .else(null as unknown as number)
            .end(),
        )
        .as('deploy_seq'),
      eb.fn.max('seq').as('state_seq'),
    ])
    .where('type', 'in', LIFECYCLE_TYPES)
    .where('api_id', 'is not', null)
    .groupBy('api_id')
    .execute();
  return rows.map((r) => ({
    api_id: r.api_id!,
    deploy_seq: r.deploy_seq === null ? null : Number(r.deploy_seq),
    state_seq: Number(r.state_seq),
  }));
}

export async function findEventsBySeq(db: Executor, seqs: readonly number[]): Promise<EventRow[]> {
  const rows: EventRow[] = [];
  for (let i = 0; i < seqs.length; i += IN_LIST)
    rows.push(
      ...(await db
        .selectFrom('events')
        .selectAll()
        .where('seq', 'in', seqs.slice(i, i + IN_LIST))
        .execute()),
    );
  return rows.sort((a, b) => a.seq - b.seq);
}

export async function findApiKeysOfApis(db: Executor, apiIds: readonly string[]): Promise<ApiKeyRow[]> {
  const rows: ApiKeyRow[] = [];
  for (let i = 0; i < apiIds.length; i += IN_LIST)
    rows.push(
      ...(await db
        .selectFrom('api_keys')
        .selectAll()
        .where('api_id', 'in', apiIds.slice(i, i + IN_LIST))
        .execute()),
    );
  return rows;
}

/** Keys changed at or after the instant (the caller keeps a small overlap for clock skew). */
export async function findApiKeysUpdatedSince(db: Executor, since: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('updated_at', '>=', since).execute();
}

/** Keys written since the cursor: by transaction on PostgreSQL, from `windowMs` before its instant on SQLite. */
export async function findApiKeysChangedSince(
  db: Executor,
  cursor: SyncCursor,
  windowMs: number,
): Promise<ApiKeyRow[]> {
  const q = db.selectFrom('api_keys').selectAll();
  return (
    cursor.horizon === null
      ? q.where('updated_at', '>=', cursor.since - windowMs)
      : q.where('sync_tx', '>=', cursor.horizon)
  ).execute();
}

/** A subscription as the gateway reads it: with its application's name (for the traces' attributes). */
export type GatewaySubscriptionRow = SubscriptionRow & { application_name: string | null };

const subscriptionsWithApplicationName = (db: Executor) =>
  db
    .selectFrom('subscriptions')
    .leftJoin('applications', 'applications.id', 'subscriptions.application_id')
    .selectAll('subscriptions')
    .select('applications.name as application_name');

export async function findSubscriptionsOfApis(
  db: Executor,
  apiIds: readonly string[],
): Promise<GatewaySubscriptionRow[]> {
  const rows: GatewaySubscriptionRow[] = [];
  for (let i = 0; i < apiIds.length; i += IN_LIST)
    rows.push(
      ...(await subscriptionsWithApplicationName(db)
        .where('subscriptions.api_id', 'in', apiIds.slice(i, i + IN_LIST))
        .execute()),
    );
  return rows;
}

export async function findSubscriptionsUpdatedSince(db: Executor, since: number): Promise<SubscriptionRow[]> {
  return db.selectFrom('subscriptions').selectAll().where('updated_at', '>=', since).execute();
}

/**
 * Subscriptions written since the cursor (see findApiKeysChangedSince). An application renamed since
 * is not among them: its name reaches the gateway at the next reconciliation (a full read).
 */
export async function findSubscriptionsChangedSince(
  db: Executor,
  cursor: SyncCursor,
  windowMs: number,
): Promise<GatewaySubscriptionRow[]> {
  const q = subscriptionsWithApplicationName(db);
  return (
    cursor.horizon === null
      ? q.where('subscriptions.updated_at', '>=', cursor.since - windowMs)
      : q.where('subscriptions.sync_tx', '>=', cursor.horizon)
  ).execute();
}

/** SQLite: changes when another connection (another process) commits to the file; null on PostgreSQL. */
export async function findDataVersion(db: Executor): Promise<number | null> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return null;
  const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(db);
  return Number(rows[0]!.data_version);
}
