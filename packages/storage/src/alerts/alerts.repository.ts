import type { Executor } from '../database.js';
import type { AlertChanges, AlertEventRow, AlertRow, NewAlertEventRow, NewAlertRow } from './alerts.table.js';

export async function findAlertsOf(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<AlertRow[]> {
  return db
    .selectFrom('alerts')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .orderBy('name')
    .execute();
}

export async function findAlert(db: Executor, id: string): Promise<AlertRow | undefined> {
  return db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Enabled alerts last evaluated before `before` (or never): the scheduler's work. */
export async function findAlertsDue(db: Executor, before: number, limit: number): Promise<AlertRow[]> {
  return db
    .selectFrom('alerts')
    .selectAll()
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('evaluated_at', 'is', null), eb('evaluated_at', '<', before)]))
    .orderBy('evaluated_at')
    .limit(limit)
    .execute();
}

export async function insertAlert(db: Executor, row: NewAlertRow): Promise<void> {
  await db.insertInto('alerts').values(row).execute();
}

export async function updateAlert(db: Executor, id: string, changes: AlertChanges): Promise<void> {
  await db.updateTable('alerts').set(changes).where('id', '=', id).execute();
}

/**
 * Records an evaluation if nobody recorded one since `seenAt` (the value read with the alert), so that
 * two processes never both record the same state change. True when this one did.
 */
export async function recordAlertEvaluation(
  db: Executor,
  id: string,
  seenAt: number | null,
  changes: { state: string; evaluated_at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('alerts')
    .set(changes)
    .where('id', '=', id)
    .where((eb) => (seenAt === null ? eb('evaluated_at', 'is', null) : eb('evaluated_at', '=', seenAt)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteAlert(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('alert_events').where('alert_id', '=', id).execute();
  await db.deleteFrom('alerts').where('id', '=', id).execute();
}

export async function insertAlertEvent(db: Executor, row: NewAlertEventRow): Promise<void> {
  await db.insertInto('alert_events').values(row).execute();
}

/** An alert's history, newest first. */
export async function findAlertEvents(
  db: Executor,
  alertId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: AlertEventRow[]; total: number }> {
  const base = db.selectFrom('alert_events').where('alert_id', '=', alertId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
