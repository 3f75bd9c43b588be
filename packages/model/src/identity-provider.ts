import { z } from 'zod';

/**
 * Identity providers (console-applications-and-settings.md 2.3, 3, 5, 9): social and enterprise sign-in
 * for the portal and the console. Shared by the management API and the console's form.
 *
 * `portico-am` is Portico's own access-management type (the spec's vendor type): an OAuth2 server
 * reached at `{serverURL}/{domain}`. Types are stored and answered in lower case; any case is accepted.
 */
export const IDENTITY_PROVIDER_TYPES = ['portico-am', 'google', 'github', 'oidc'] as const;
export type IdentityProviderType = (typeof IDENTITY_PROVIDER_TYPES)[number];

export const IDENTITY_PROVIDER_NAME_MAX = 50;
export const IDENTITY_PROVIDER_DESCRIPTION_MAX = 1000;
/** The button colour of a provider without one (section 9). */
export const DEFAULT_IDENTITY_PROVIDER_COLOR = '#34A0D4';

export const IDENTITY_PROVIDER_MESSAGES = {
  nameRequired: 'Identity provider name is required.',
  nameTooLong: `The identity provider has to be less than ${IDENTITY_PROVIDER_NAME_MAX} characters long.`,
  conditionRequired: 'A condition is required.',
  groupsRequired: 'At least one group is required.',
  required: 'is required',
  notUrl: 'must be an http or https URL',
  roleRequired: 'A portal or management role is required.',
} as const;

/** Which profile fields are read from which user-info claim (or JSON path `$.a.b`). */
export const UserProfileMapping = z.object({
  id: z.string().trim().max(200).nullish(),
  firstname: z.string().trim().max(200).nullish(),
  lastname: z.string().trim().max(200).nullish(),
  email: z.string().trim().max(200).nullish(),
  picture: z.string().trim().max(200).nullish(),
});
export type UserProfileMapping = z.infer<typeof UserProfileMapping>;

const condition = z
  .string(IDENTITY_PROVIDER_MESSAGES.conditionRequired)
  .trim()
  .min(1, IDENTITY_PROVIDER_MESSAGES.conditionRequired)
  .max(2000);

/** Users whose claims meet the condition join the groups (with the groups' default roles). */
export const GroupMapping = z.object({
  condition,
  groups: z
    .array(z.string().min(1).max(200), IDENTITY_PROVIDER_MESSAGES.groupsRequired)
    .min(1, IDENTITY_PROVIDER_MESSAGES.groupsRequired)
    .max(100),
});
export type GroupMapping = z.infer<typeof GroupMapping>;

/** Users whose claims meet the condition get the portal and/or management role. */
export const RoleMapping = z
  .object({
    condition,
    portal: z.string().trim().max(64).nullish(),
    management: z.string().trim().max(64).nullish(),
  })
  .refine((m) => !!m.portal || !!m.management, {
    message: IDENTITY_PROVIDER_MESSAGES.roleRequired,
    path: ['portal'],
  });
export type RoleMapping = z.infer<typeof RoleMapping>;

/** Every configuration key of every type; which are required depends on the type. */
export const IdentityProviderConfiguration = z.object({
  clientId: z.string().trim().max(500).nullish(),
  clientSecret: z.string().max(2000).nullish(),
  serverURL: z.string().trim().max(2048).nullish(),
  domain: z.string().trim().max(200).nullish(),
  tokenEndpoint: z.string().trim().max(2048).nullish(),
  tokenIntrospectionEndpoint: z.string().trim().max(2048).nullish(),
  authorizeEndpoint: z.string().trim().max(2048).nullish(),
  userInfoEndpoint: z.string().trim().max(2048).nullish(),
  userLogoutEndpoint: z.string().trim().max(2048).nullish(),
  scopes: z.array(z.string().trim().min(1).max(200)).max(50).nullish(),
  color: z
    .string()
    .trim()
    .regex(/^(#[0-9a-fA-F]{3,8})?$/, 'must be a colour such as #34A0D4')
    .nullish(),
});
export type IdentityProviderConfiguration = z.infer<typeof IdentityProviderConfiguration>;

const name = z
  .string(IDENTITY_PROVIDER_MESSAGES.nameRequired)
  .trim()
  .min(1, IDENTITY_PROVIDER_MESSAGES.nameRequired)
  .max(IDENTITY_PROVIDER_NAME_MAX, IDENTITY_PROVIDER_MESSAGES.nameTooLong);

const typeSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.toLowerCase().replace(/_/g, '-') : v),
  z.enum(IDENTITY_PROVIDER_TYPES),
);

const common = {
  name,
  description: z.string().max(IDENTITY_PROVIDER_DESCRIPTION_MAX).nullish(),
  enabled: z.boolean().optional(),
  emailRequired: z.boolean().optional(),
  configuration: IdentityProviderConfiguration.optional(),
  groupMappings: z.array(GroupMapping).max(100).optional(),
  roleMappings: z.array(RoleMapping).max(100).optional(),
  userProfileMapping: UserProfileMapping.optional(),
};

/** The body of POST configuration/identities. */
export const NewIdentityProvider = z.object({ ...common, type: typeSchema });
export type NewIdentityProvider = z.infer<typeof NewIdentityProvider>;

/** The body of PUT configuration/identities/{id}: the type stays; an absent client secret is kept. */
export const IdentityProviderUpdate = z.object({ ...common, type: typeSchema.optional() });
export type IdentityProviderUpdate = z.infer<typeof IdentityProviderUpdate>;

const isHttpUrl = (value: string | null | undefined): boolean => {
  if (!value) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

/**
 * The first rule of section 5 that a provider's configuration breaks, by type: client id and secret
 * always; the access-management type its server URL, domain and the profile id mapping; oidc its token,
 * authorize and user-info endpoints (URLs) and the profile id mapping. Fields are named as in the body.
 */
export function identityProviderIssue(
  type: IdentityProviderType,
  configuration: IdentityProviderConfiguration,
  userProfileMapping: UserProfileMapping | undefined,
): { field: string; message: string } | undefined {
  const { required, notUrl } = IDENTITY_PROVIDER_MESSAGES;
  const missing = (key: keyof IdentityProviderConfiguration) => {
    const value = configuration[key];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  };
  for (const key of ['clientId', 'clientSecret'] as const)
    if (missing(key)) return { field: `configuration.${key}`, message: required };
  const urls: (keyof IdentityProviderConfiguration)[] =
    type === 'portico-am'
      ? ['serverURL']
      : type === 'oidc'
        ? ['tokenEndpoint', 'authorizeEndpoint', 'userInfoEndpoint']
        : [];
  for (const key of urls) {
    if (missing(key)) return { field: `configuration.${key}`, message: required };
    if (!isHttpUrl(configuration[key] as string)) return { field: `configuration.${key}`, message: notUrl };
  }
  for (const key of ['tokenIntrospectionEndpoint', 'userLogoutEndpoint'] as const)
    if (!missing(key) && !isHttpUrl(configuration[key] as string))
      return { field: `configuration.${key}`, message: notUrl };
  if (type === 'portico-am' && missing('domain')) return { field: 'configuration.domain', message: required };
  if ((type === 'portico-am' || type === 'oidc') && !userProfileMapping?.id?.trim())
    return { field: 'userProfileMapping.id', message: required };
  return undefined;
}

/** An identity provider as GET configuration/identities/{id} answers it. */
export interface IdentityProviderJson {
  id: string;
  type: IdentityProviderType;
  name: string;
  description: string | null;
  enabled: boolean;
  emailRequired: boolean;
  configuration: IdentityProviderConfiguration;
  groupMappings: GroupMapping[];
  roleMappings: RoleMapping[];
  userProfileMapping: UserProfileMapping;
  created_at: number;
  updated_at: number;
}

/** A line of GET configuration/identities. */
export type IdentityProviderListItemJson = Pick<
  IdentityProviderJson,
  'id' | 'type' | 'name' | 'description' | 'enabled' | 'created_at' | 'updated_at'
>;
