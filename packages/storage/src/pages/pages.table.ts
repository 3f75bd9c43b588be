import type { Insertable, Selectable, Updateable } from 'kysely';

export interface PageTable {
  id: string;
  /** API or ENVIRONMENT (portal-wide documentation). */
  reference_type: string;
  reference_id: string;
  name: string;
  description: string | null;
  type: string;
  content: string | null;
  last_contributor: string | null;
  order: number;
  published: number;
  homepage: number;
  parent_id: string | null;
  source: string | null;
  configuration: string;
  excluded_groups: string;
  metadata: string;
  created_at: number;
  updated_at: number;
  /** When the scheduler fetches the page from its source next (null: no schedule). */
  next_fetch_at: number | null;
}
export type PageRow = Selectable<PageTable>;
export type NewPageRow = Insertable<PageTable>;
export type PageRowUpdate = Updateable<PageTable>;
