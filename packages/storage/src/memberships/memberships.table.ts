import type { Insertable, Selectable } from 'kysely';

/** `USER` or `GROUP`: a group member of an API gives its users the group's role. */
export type MemberType = 'USER' | 'GROUP';
/** MANAGEMENT and PORTAL memberships use the reference id `DEFAULT` (the one environment). */
export type MembershipReferenceType = 'MANAGEMENT' | 'PORTAL' | 'API' | 'APPLICATION' | 'GROUP';

export interface MembershipTable {
  id: string;
  member_id: string;
  member_type: string;
  reference_type: string;
  reference_id: string;
  role_scope: string;
  role_name: string;
  /** The identity provider whose mappings gave this membership (refreshed at each sign-in); null otherwise. */
  source: string | null;
  created_at: number;
  updated_at: number;
}
export type MembershipRow = Selectable<MembershipTable>;
export type NewMembershipRow = Insertable<MembershipTable>;
