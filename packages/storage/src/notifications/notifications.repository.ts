import type { Executor } from '../database.js';
import type { NewNotificationRow, NotificationRow } from './notifications.table.js';

export async function insertNotification(db: Executor, row: NewNotificationRow): Promise<void> {
  await db.insertInto('notifications').values(row).execute();
}

export async function findNotificationsOfUser(
  db: Executor,
  userId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: NotificationRow[]; total: number }> {
  const base = db.selectFrom('notifications').where('user_id', '=', userId);
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

/** Deletes one notification of the user, or all of them; returns how many went. */
export async function deleteNotificationsOfUser(db: Executor, userId: string, id?: string): Promise<number> {
  let q = db.deleteFrom('notifications').where('user_id', '=', userId);
  if (id !== undefined) q = q.where('id', '=', id);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows);
}
