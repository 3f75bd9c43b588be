import type {
  GroupMapping,
  IdentityProviderConfiguration,
  IdentityProviderJson,
  IdentityProviderListItemJson,
  IdentityProviderType,
  RoleMapping,
  UserProfileMapping,
} from '@portico/model';
import type { IdentityProviderRow } from '@portico/storage';
import { endpointsOf } from '../social-login/providers.js';

const parse = <T>(json: string, fallback: T): T => {
  try {
    return (JSON.parse(json) as T | null) ?? fallback;
  } catch {
    return fallback;
  }
};

/** The stored type in the spelling of the API (lower case; `portico-am` for Portico's own type). */
export const typeOf = (row: IdentityProviderRow): IdentityProviderType =>
  row.type.toLowerCase().replace(/_/g, '-') as IdentityProviderType;

/** The profile claims read by default, by type (what GET configuration/identities/{id} shows). */
export function defaultProfileMapping(type: string): Required<UserProfileMapping> {
  return type === 'github'
    ? { id: 'id', firstname: 'name', lastname: '', email: 'email', picture: 'avatar_url' }
    : { id: 'sub', firstname: 'given_name', lastname: 'family_name', email: 'email', picture: 'picture' };
}

export const configurationOf = (row: IdentityProviderRow) =>
  parse<IdentityProviderConfiguration>(row.configuration, {});
export const groupMappingsOf = (row: IdentityProviderRow) => parse<GroupMapping[]>(row.group_mappings, []);
export const roleMappingsOf = (row: IdentityProviderRow) => parse<RoleMapping[]>(row.role_mappings, []);
/** The stored profile mapping over the type's defaults (an empty value means "not read"). */
export const profileMappingOf = (row: IdentityProviderRow): Required<UserProfileMapping> => ({
  ...defaultProfileMapping(typeOf(row)),
  ...parse<UserProfileMapping>(row.user_profile_mapping, {}),
});

/**
 * An identity provider with the defaults applied (configuration, scopes, mappings, profile mapping);
 * the client secret only for who may change the provider.
 */
export function toIdentityJson(row: IdentityProviderRow, withSecret: boolean): IdentityProviderJson {
  const configuration = configurationOf(row);
  const { clientSecret, ...rest } = configuration;
  return {
    id: row.id,
    type: typeOf(row),
    name: row.name,
    description: row.description,
    enabled: row.enabled === 1,
    emailRequired: row.email_required === 1,
    configuration: {
      ...rest,
      scopes: configuration.scopes ?? [],
      ...(withSecret ? { clientSecret: clientSecret ?? null } : {}),
    },
    groupMappings: groupMappingsOf(row),
    roleMappings: roleMappingsOf(row),
    userProfileMapping: profileMappingOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toIdentityListItemJson(row: IdentityProviderRow): IdentityProviderListItemJson {
  return {
    id: row.id,
    type: typeOf(row),
    name: row.name,
    description: row.description,
    enabled: row.enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What the audit keeps of a provider: never the client secret. */
export const auditedIdentity = (row: IdentityProviderRow) => toIdentityJson(row, false);

/** What the sign-in page needs to start a provider's authorization flow; never the client secret. */
export function toPublicIdentityJson(row: IdentityProviderRow) {
  const c = configurationOf(row);
  const endpoints = endpointsOf(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: typeOf(row),
    clientId: c.clientId ?? null,
    authorizationEndpoint: endpoints.authorizationEndpoint,
    userLogoutEndpoint: endpoints.userLogoutEndpoint,
    scopes: endpoints.scopes,
    color: c.color ?? null,
  };
}
