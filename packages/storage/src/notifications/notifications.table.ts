import type { Insertable, Selectable } from 'kysely';

/** A notification shown to one user in the top bar (and raised as a desktop notification). */
export interface NotificationTable {
  id: string;
  user_id: string;
  title: string;
  message: string;
  created_at: number;
}
export type NotificationRow = Selectable<NotificationTable>;
export type NewNotificationRow = Insertable<NotificationTable>;
