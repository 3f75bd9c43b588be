import type { Insertable, Selectable } from 'kysely';

/**
 * A notification setting: GENERIC (a notifier, EMAIL or WEBHOOK, with its config) shared by the
 * scope, or PORTAL (in-app notifications) of one user. `hooks` is a JSON array of hook ids.
 */
export interface NotificationSettingTable {
  id: string;
  name: string;
  config_type: string;
  /** API, APPLICATION or PORTAL. */
  reference_type: string;
  reference_id: string;
  /** The user of a PORTAL setting. */
  user_id: string | null;
  notifier: string | null;
  config: string | null;
  use_system_proxy: number;
  hooks: string;
  created_at: number;
  updated_at: number;
}
export type NotificationSettingRow = Selectable<NotificationSettingTable>;
export type NewNotificationSettingRow = Insertable<NotificationSettingTable>;

/** One mail or webhook delivery waiting, sent or failed (the outbox). */
export interface NotificationDeliveryTable {
  id: string;
  setting_id: string;
  /** EMAIL or WEBHOOK. */
  notifier: string;
  hook: string;
  /** Recipients (EMAIL, comma separated) or URL (WEBHOOK). */
  target: string;
  use_system_proxy: number;
  /** JSON: the hook's payload. */
  payload: string;
  /** PENDING, SENT or FAILED. */
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}
export type NotificationDeliveryRow = Selectable<NotificationDeliveryTable>;
export type NewNotificationDeliveryRow = Insertable<NotificationDeliveryTable>;
