import type { Executor } from '../database.js';
import type {
  NewNotificationDeliveryRow,
  NewNotificationSettingRow,
  NotificationDeliveryRow,
  NotificationSettingRow,
} from './notification-settings.table.js';

export async function insertNotificationSetting(db: Executor, row: NewNotificationSettingRow): Promise<void> {
  await db.insertInto('notification_settings').values(row).execute();
}

export async function updateNotificationSetting(
  db: Executor,
  id: string,
  changes: Partial<Omit<NewNotificationSettingRow, 'id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('notification_settings').set(changes).where('id', '=', id).execute();
}

export async function deleteNotificationSetting(db: Executor, id: string): Promise<number> {
  const r = await db.deleteFrom('notification_settings').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export function findNotificationSettingById(db: Executor, id: string) {
  return db.selectFrom('notification_settings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The settings of one scope (API, APPLICATION or PORTAL and its id), oldest first. */
export function findNotificationSettingsOf(
  db: Executor,
  referenceType: string,
  referenceId: string,
): Promise<NotificationSettingRow[]> {
  return db
    .selectFrom('notification_settings')
    .selectAll()
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function deleteNotificationSettingsOf(db: Executor, referenceType: string, referenceId: string) {
  await db
    .deleteFrom('notification_settings')
    .where('reference_type', '=', referenceType)
    .where('reference_id', '=', referenceId)
    .execute();
}

export async function insertNotificationDelivery(
  db: Executor,
  row: NewNotificationDeliveryRow,
): Promise<void> {
  await db.insertInto('notification_deliveries').values(row).execute();
}

/** Pending deliveries due at `now`, oldest first. */
export function findDueNotificationDeliveries(
  db: Executor,
  now: number,
  limit: number,
): Promise<NotificationDeliveryRow[]> {
  return db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Claims a due pending delivery for one attempt: moves its next attempt to `until`, so that no other
 * process reads it as due while this one sends it. True when this caller got it (still PENDING, due
 * and with the attempt count it was read with).
 */
export async function claimNotificationDelivery(
  db: Executor,
  id: string,
  previousAttempts: number,
  now: number,
  until: number,
): Promise<boolean> {
  const r = await db
    .updateTable('notification_deliveries')
    .set({ next_attempt_at: until })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .where('attempts', '=', previousAttempts)
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Records an attempt on a pending delivery, only if nobody recorded one since (`attempts` unchanged):
 * true when this caller's record won.
 */
export async function recordNotificationAttempt(
  db: Executor,
  id: string,
  previousAttempts: number,
  changes: { status: string; next_attempt_at: number; last_error: string | null; updated_at: number },
): Promise<boolean> {
  const r = await db
    .updateTable('notification_deliveries')
    .set({ ...changes, attempts: previousAttempts + 1 })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .where('attempts', '=', previousAttempts)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function findNotificationDeliveriesOfSetting(db: Executor, settingId: string) {
  return db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('setting_id', '=', settingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Deliveries waiting to be sent (first time or retry), and when the oldest of them was created (metrics). */
export async function pendingNotificationDeliveries(
  db: Executor,
): Promise<{ count: number; oldestCreatedAt: number | null }> {
  const row = await db
    .selectFrom('notification_deliveries')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  const oldest = row?.oldest;
  return {
    count: Number(row?.count ?? 0),
    oldestCreatedAt: oldest === null || oldest === undefined ? null : Number(oldest),
  };
}
