import type { Insertable, Selectable } from 'kysely';

/** A one-time token sent by mail: USER_REGISTRATION or RESET_PASSWORD. */
export interface TokenTable {
  id: string;
  type: string;
  user_id: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}
export type TokenRow = Selectable<TokenTable>;
export type NewTokenRow = Insertable<TokenTable>;
