import type { Insertable, Selectable } from 'kysely';

export interface GroupTable {
  id: string;
  name: string;
  /** JSON list of `{ "event": "API_CREATE" | "APPLICATION_CREATE" }`. */
  event_rules: string;
  max_invitation: number | null;
  lock_api_role: number;
  lock_application_role: number;
  system_invitation: number;
  email_invitation: number;
  /** Default API role of the group's members (invitations and the add-member dialog start with it). */
  api_role: string | null;
  /** Default application role of the group's members. */
  application_role: string | null;
  created_at: number;
  updated_at: number;
}
export type GroupRow = Selectable<GroupTable>;
export type NewGroupRow = Insertable<GroupTable>;
