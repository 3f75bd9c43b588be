import type { Insertable, Selectable, Updateable } from 'kysely';

export interface IdentityProviderTable {
  id: string;
  /** oidc, google, github, or the Portico access-management type. */
  type: string;
  name: string;
  description: string | null;
  enabled: number;
  email_required: number;
  /** JSON: clientId, clientSecret, endpoints, scopes, color (by type). */
  configuration: string;
  group_mappings: string;
  role_mappings: string;
  user_profile_mapping: string;
  created_at: number;
  updated_at: number;
}
export type IdentityProviderRow = Selectable<IdentityProviderTable>;
export type NewIdentityProviderRow = Insertable<IdentityProviderTable>;
export type IdentityProviderUpdate = Updateable<IdentityProviderTable>;
