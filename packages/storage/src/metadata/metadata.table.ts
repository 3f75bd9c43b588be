import type { Insertable, Selectable, Updateable } from 'kysely';

/** Metadata of an API (reference API) or the platform's defaults (reference DEFAULT). */
export interface MetadataTable {
  /** API, or DEFAULT for the defaults every API inherits. */
  reference_type: string;
  reference_id: string;
  key: string;
  name: string;
  /** STRING, NUMERIC, BOOLEAN, DATE, MAIL or URL. */
  format: string;
  value: string | null;
  created_at: number;
  updated_at: number;
}
export type MetadataRow = Selectable<MetadataTable>;
export type NewMetadataRow = Insertable<MetadataTable>;
export type MetadataRowUpdate = Updateable<MetadataTable>;
