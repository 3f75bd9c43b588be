import type { Insertable, Selectable } from 'kysely';

/** A file uploaded for the documentation of an API or of the portal, named by the hash of its bytes. */
export interface MediaTable {
  hash: string;
  /** API or ENVIRONMENT (portal media). */
  reference_type: string;
  reference_id: string;
  file_name: string;
  content_type: string;
  size: number;
  data: Buffer;
  created_at: number;
}
export type MediaRow = Selectable<MediaTable>;
export type NewMediaRow = Insertable<MediaTable>;
