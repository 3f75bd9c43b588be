import type { Executor } from '../database.js';
import type { SchedulerLeaseRow } from './leases.table.js';

/**
 * Takes or renews the lease `name` for `owner` until `now + ttlMs`: true when `owner` holds it now.
 * The row is created once; then a single conditional update decides, which both SQLite and
 * PostgreSQL run atomically (PostgreSQL re-checks the condition on the row it locks).
 */
export async function acquireLease(
  db: Executor,
  name: string,
  owner: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  await db
    .insertInto('scheduler_leases')
    .values({ name, owner, expires_at: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await db
    .updateTable('scheduler_leases')
    .set({ owner, expires_at: now + ttlMs })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('owner', '=', owner), eb('expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease up at once (a stopping process), so another one takes over without waiting. */
export async function releaseLease(db: Executor, name: string, owner: string): Promise<void> {
  await db
    .updateTable('scheduler_leases')
    .set({ expires_at: 0 })
    .where('name', '=', name)
    .where('owner', '=', owner)
    .execute();
}

export async function findLease(db: Executor, name: string): Promise<SchedulerLeaseRow | undefined> {
  return db.selectFrom('scheduler_leases').selectAll().where('name', '=', name).executeTakeFirst();
}
