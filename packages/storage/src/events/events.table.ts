import type { Generated, Insertable, Selectable } from 'kysely';

export interface EventTable {
  /** Increasing sequence: the gateways' sync cursor. */
  seq: Generated<number>;
  id: string;
  /** PUBLISH_API, UNPUBLISH_API, START_API, STOP_API, ... */
  type: string;
  /** JSON text: for PUBLISH_API the deployed API with its definition. */
  payload: string | null;
  properties: string;
  api_id: string | null;
  user_id: string | null;
  created_at: number;
  updated_at: number;
  /** PostgreSQL: the transaction that last wrote the row (a trigger sets it); the gateways' sync order. */
  sync_tx: Generated<number | null>;
}
export type EventRow = Selectable<EventTable>;
export type NewEventRow = Insertable<EventTable>;
