import type { Selectable } from 'kysely';

/** The portal's top APIs, in their order. */
export interface TopApiTable {
  api_id: string;
  order: number;
}
export type TopApiRow = Selectable<TopApiTable>;
