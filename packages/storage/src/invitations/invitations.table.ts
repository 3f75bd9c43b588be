import type { Insertable, Selectable } from 'kysely';

/** An email address invited to join a reference (a GROUP) with the roles it will hold there. */
export interface InvitationTable {
  id: string;
  reference_type: string;
  reference_id: string;
  /** Stored lower-cased: an invitation matches the account whose email is the same, whatever its case. */
  email: string;
  api_role: string | null;
  application_role: string | null;
  created_at: number;
  updated_at: number;
}
export type InvitationRow = Selectable<InvitationTable>;
export type NewInvitationRow = Insertable<InvitationTable>;
