import type { Insertable, Selectable } from 'kysely';

/** A sharding tag: which gateways serve an API; restricted to some groups' members when set. */
export interface TagTable {
  id: string;
  name: string;
  description: string | null;
  /** JSON list of group ids; empty means everybody may use the tag. */
  restricted_groups: string;
}
export type TagRow = Selectable<TagTable>;
export type NewTagRow = Insertable<TagTable>;
