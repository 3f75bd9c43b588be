import type { Insertable, Selectable } from 'kysely';

export interface AuditTable {
  id: string;
  /** API, APPLICATION or ENVIRONMENT (platform-wide changes). */
  reference_type: string;
  reference_id: string;
  user_id: string | null;
  event: string;
  properties: string;
  /** JSON Patch (RFC 6902) of the change. */
  patch: string | null;
  created_at: number;
}
export type AuditRow = Selectable<AuditTable>;
export type NewAuditRow = Insertable<AuditTable>;
