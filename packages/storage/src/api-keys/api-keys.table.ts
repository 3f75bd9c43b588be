import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface ApiKeyTable {
  key: string;
  subscription_id: string;
  application_id: string;
  plan_id: string;
  api_id: string;
  revoked: number;
  paused: number;
  revoked_at: number | null;
  expire_at: number | null;
  created_at: number;
  updated_at: number;
  /** PostgreSQL: the transaction that last wrote the row (a trigger sets it); the gateways' sync order. */
  sync_tx: Generated<number | null>;
  /** When the application's owner was told the key expires (null: not yet, or the date changed). */
  expiry_notified_at: number | null;
}
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type NewApiKeyRow = Insertable<ApiKeyTable>;
export type ApiKeyRowUpdate = Updateable<ApiKeyTable>;
