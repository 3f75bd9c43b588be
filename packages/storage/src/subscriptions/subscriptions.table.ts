import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface SubscriptionTable {
  id: string;
  api_id: string;
  plan_id: string;
  application_id: string;
  /** PENDING, ACCEPTED, PAUSED, REJECTED, CLOSED. */
  status: string;
  request: string | null;
  reason: string | null;
  client_id: string | null;
  subscribed_by: string | null;
  processed_by: string | null;
  created_at: number;
  updated_at: number;
  /** PostgreSQL: the transaction that last wrote the row (a trigger sets it); the gateways' sync order. */
  sync_tx: Generated<number | null>;
  processed_at: number | null;
  starting_at: number | null;
  ending_at: number | null;
  paused_at: number | null;
  closed_at: number | null;
}
export type SubscriptionRow = Selectable<SubscriptionTable>;
export type NewSubscriptionRow = Insertable<SubscriptionTable>;
export type SubscriptionRowUpdate = Updateable<SubscriptionTable>;
