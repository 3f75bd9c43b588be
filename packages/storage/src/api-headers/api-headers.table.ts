import type { Insertable, Selectable } from 'kysely';

/** A header of the portal's API pages: a name and a value templated from the API (`${api.version}`). */
export interface ApiHeaderTable {
  id: string;
  name: string;
  value: string;
  order: number;
  created_at: number;
  updated_at: number;
}
export type ApiHeaderRow = Selectable<ApiHeaderTable>;
export type NewApiHeaderRow = Insertable<ApiHeaderTable>;
