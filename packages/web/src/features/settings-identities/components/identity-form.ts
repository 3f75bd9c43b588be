import type {
  IdentityProviderConfiguration,
  IdentityProviderJson,
  IdentityProviderType,
  NewIdentityProvider,
} from '@portico/model';

type Config = { [K in Exclude<keyof IdentityProviderConfiguration, 'scopes'>]: string } & {
  scopes: string[];
};

export interface IdentityFormValues {
  enabled: boolean;
  name: string;
  description: string;
  emailRequired: boolean;
  configuration: Config;
  groupMappings: { condition: string; groups: string[] }[];
  roleMappings: { condition: string; portal: string; management: string }[];
  userProfileMapping: { id: string; firstname: string; lastname: string; email: string; picture: string };
}

const EMPTY_CONFIG: Config = {
  clientId: '',
  clientSecret: '',
  serverURL: '',
  domain: '',
  tokenEndpoint: '',
  tokenIntrospectionEndpoint: '',
  authorizeEndpoint: '',
  userInfoEndpoint: '',
  userLogoutEndpoint: '',
  scopes: [],
  color: '',
};

/** The form of a provider (creation defaults of section 4: enabled, email required, no scopes). */
export function valuesOf(type: IdentityProviderType, p?: IdentityProviderJson): IdentityFormValues {
  const c = p?.configuration ?? {};
  const configuration = { ...EMPTY_CONFIG };
  for (const key of Object.keys(EMPTY_CONFIG) as (keyof Config)[])
    if (key !== 'scopes') configuration[key] = String(c[key] ?? '');
  configuration.scopes = c.scopes ?? [];
  const m = p?.userProfileMapping;
  const github = type === 'github';
  return {
    enabled: p?.enabled ?? true,
    name: p?.name ?? '',
    description: p?.description ?? '',
    emailRequired: p?.emailRequired ?? true,
    configuration,
    groupMappings: (p?.groupMappings ?? []).map((g) => ({ condition: g.condition, groups: g.groups })),
    roleMappings: (p?.roleMappings ?? []).map((r) => ({
      condition: r.condition,
      portal: r.portal ?? '',
      management: r.management ?? '',
    })),
    userProfileMapping: {
      id: m?.id ?? (github ? 'id' : 'sub'),
      firstname: m?.firstname ?? (github ? 'name' : 'given_name'),
      lastname: m?.lastname ?? (github ? '' : 'family_name'),
      email: m?.email ?? 'email',
      picture: m?.picture ?? (github ? 'avatar_url' : 'picture'),
    },
  };
}

/** The body of POST or PUT: empty values left out (an empty secret keeps the stored one). */
export function toInput(type: IdentityProviderType, v: IdentityFormValues): NewIdentityProvider {
  const configuration = Object.fromEntries(
    Object.entries(v.configuration).filter(([, value]) =>
      Array.isArray(value) ? true : value.trim() !== '',
    ),
  ) as IdentityProviderConfiguration;
  return {
    type,
    name: v.name.trim(),
    description: v.description.trim() || null,
    enabled: v.enabled,
    emailRequired: v.emailRequired,
    configuration,
    groupMappings: v.groupMappings,
    roleMappings: v.roleMappings.map((r) => ({
      condition: r.condition,
      portal: r.portal || null,
      management: r.management || null,
    })),
    userProfileMapping: v.userProfileMapping,
  };
}
