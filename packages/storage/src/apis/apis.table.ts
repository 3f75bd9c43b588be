import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface ApiTable {
  id: string;
  name: string;
  version: string;
  description: string | null;
  /** Copy of the definition's proxy context path, indexed for the uniqueness check and sorting. */
  context_path: string;
  /** JSON: the API definition (proxy, paths, properties, services, resources, ...). */
  definition: string;
  state: string;
  visibility: string;
  lifecycle_state: string;
  picture: string | null;
  labels: string;
  views: string;
  groups: string;
  /** JSON list of sharding tags (a copy of the definition's `tags`, for lists and filters). */
  tags: Generated<string>;
  deployed_at: number | null;
  created_at: number;
  updated_at: number;
}
export type ApiRow = Selectable<ApiTable>;
export type NewApiRow = Insertable<ApiTable>;
export type ApiRowUpdate = Updateable<ApiTable>;

/** One entrypoint of an API: its context path, or each path of its virtual hosts. */
export interface ApiContextPathTable {
  api_id: string;
  /** '' when the path holds for any host. */
  host: string;
  /** Without a trailing slash. */
  path: string;
}
export type ApiContextPathRow = Selectable<ApiContextPathTable>;
