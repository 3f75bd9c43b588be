import type { Insertable, Selectable, Updateable } from 'kysely';

export interface UserTable {
  id: string;
  /** Where the identity lives: `portico` for the built-in user store, or an identity provider id. */
  source: string;
  source_id: string;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  /** bcrypt hash; null for users of an external identity provider or not yet finalized. */
  password: string | null;
  picture: string | null;
  status: string;
  login_count: number;
  last_connection_at: number | null;
  created_at: number;
  updated_at: number;
  /** Sessions opened before this instant are ended (a password reset or change); null: none. */
  sessions_valid_after: number | null;
  /** The one session kept open by `sessions_valid_after`: the one that changed the password. */
  kept_session_id: string | null;
}
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type UserRowUpdate = Updateable<UserTable>;
