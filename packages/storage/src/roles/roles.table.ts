import type { Insertable, Selectable } from 'kysely';

export interface RoleTable {
  scope: string;
  name: string;
  description: string | null;
  is_default: number;
  is_system: number;
  /** JSON: permission name -> rights (`{"PLAN":["C","R"]}`). */
  permissions: string;
  created_at: number;
  updated_at: number;
}
export type RoleRow = Selectable<RoleTable>;
export type NewRoleRow = Insertable<RoleTable>;
