import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A view: a grouping of APIs in the portal; `all` is the default one and cannot be deleted. */
export interface ViewTable {
  id: string;
  name: string;
  description: string | null;
  order: Generated<number>;
  /** 1 for the portal's default view (one at most). */
  default_view: Generated<number>;
  hidden: Generated<number>;
  /** Picture as a data URL. */
  picture: string | null;
  highlight_api: string | null;
  created_at: number;
  updated_at: number;
}
export type ViewRow = Selectable<ViewTable>;
export type NewViewRow = Insertable<ViewTable>;
export type ViewRowUpdate = Updateable<ViewTable>;
