import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface PlanTable {
  id: string;
  api_id: string;
  name: string;
  description: string | null;
  security: string;
  security_definition: string | null;
  validation: string;
  type: string;
  status: string;
  order: number;
  characteristics: string;
  paths: string;
  excluded_groups: string;
  comment_required: number;
  comment_message: string | null;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  closed_at: number | null;
  /** Sharding tags restricting the plan (JSON list); empty for every gateway of the API. */
  tags: Generated<string>;
}
export type PlanRow = Selectable<PlanTable>;
export type NewPlanRow = Insertable<PlanTable>;
export type PlanRowUpdate = Updateable<PlanTable>;
