import type { Insertable, Selectable, Updateable } from 'kysely';

/** A client registration provider: where and how applications get their OAuth client. */
export interface ClientRegistrationProviderTable {
  id: string;
  name: string;
  description: string | null;
  /** The OpenID Connect discovery document (`.../.well-known/openid-configuration`). */
  discovery_endpoint: string;
  /** Client credentials that obtain the initial access token (client_credentials grant). */
  client_id: string;
  client_secret: string;
  /** JSON list of scopes asked with the initial access token. */
  scopes: string;
  created_at: number;
  updated_at: number;
}
export type ClientRegistrationProviderRow = Selectable<ClientRegistrationProviderTable>;
export type NewClientRegistrationProviderRow = Insertable<ClientRegistrationProviderTable>;
export type ClientRegistrationProviderUpdate = Updateable<ClientRegistrationProviderTable>;

/** The registration of an application's client at a provider (RFC 7591), managed per RFC 7592. */
export interface ApplicationRegistrationTable {
  application_id: string;
  provider_id: string;
  client_id: string;
  registration_access_token: string | null;
  registration_client_uri: string | null;
  created_at: number;
  updated_at: number;
}
export type ApplicationRegistrationRow = Selectable<ApplicationRegistrationTable>;
export type NewApplicationRegistrationRow = Insertable<ApplicationRegistrationTable>;
