import type { Executor } from '../database.js';
import type { InstanceRow, InstanceRowUpdate, NewInstanceRow } from './instances.table.js';

export async function insertInstance(db: Executor, row: NewInstanceRow): Promise<void> {
  await db.insertInto('instances').values(row).execute();
}

export async function updateInstance(db: Executor, id: string, changes: InstanceRowUpdate): Promise<void> {
  await db.updateTable('instances').set(changes).where('id', '=', id).execute();
}

export async function findInstanceById(db: Executor, id: string): Promise<InstanceRow | undefined> {
  return db.selectFrom('instances').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Instances started in a range (history) or still running, newest first. */
export async function findInstances(
  db: Executor,
  q: {
    includeStopped: boolean;
    /** Live mode: only instances whose last heartbeat is this recent (the others died silently). */
    beatingSince?: number;
    from?: number;
    to?: number;
    offset: number;
    limit: number;
  },
): Promise<{ rows: InstanceRow[]; total: number }> {
  let base = db.selectFrom('instances');
  if (!q.includeStopped) base = base.where('state', '=', 'STARTED');
  if (!q.includeStopped && q.beatingSince !== undefined)
    base = base.where('last_heartbeat_at', '>=', q.beatingSince);
  if (q.from !== undefined) base = base.where('last_heartbeat_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('started_at', '<=', q.to);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('started_at', 'desc').orderBy('id').offset(q.offset).limit(q.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
