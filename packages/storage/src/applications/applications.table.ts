import type { Insertable, Selectable, Updateable } from 'kysely';

export interface ApplicationTable {
  id: string;
  name: string;
  description: string | null;
  type: string;
  status: string;
  client_id: string | null;
  groups: string;
  settings: string;
  picture: string | null;
  created_at: number;
  updated_at: number;
}
export type ApplicationRow = Selectable<ApplicationTable>;
export type NewApplicationRow = Insertable<ApplicationTable>;
export type ApplicationRowUpdate = Updateable<ApplicationTable>;
