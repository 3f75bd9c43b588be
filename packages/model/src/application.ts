import { z } from 'zod';

/**
 * Applications (console-applications-and-settings.md sections 3 and 5): types, OAuth grant types and
 * their rules, the client id limits; shared by the server and the forms.
 */

export const APPLICATION_TYPES = ['SIMPLE', 'BROWSER', 'WEB', 'NATIVE'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];
export type OAuthApplicationType = Exclude<ApplicationType, 'SIMPLE'>;
export const ApplicationType = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(APPLICATION_TYPES));

export const GRANT_TYPES = [
  'authorization_code',
  'implicit',
  'implicit_hybrid',
  'refresh_token',
  'password',
] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** What each OAuth application type allows, requires and gets by default. */
export const GRANT_TYPE_RULES: Record<
  OAuthApplicationType,
  { allowed: readonly GrantType[]; mandatory: readonly GrantType[]; default: readonly GrantType[] }
> = {
  BROWSER: { allowed: ['authorization_code', 'implicit'], mandatory: [], default: ['implicit'] },
  WEB: {
    allowed: ['authorization_code', 'refresh_token', 'implicit_hybrid'],
    mandatory: ['authorization_code'],
    default: ['authorization_code'],
  },
  NATIVE: {
    allowed: ['authorization_code', 'refresh_token', 'implicit_hybrid', 'password'],
    mandatory: ['authorization_code'],
    default: ['authorization_code'],
  },
};

/** Grant types that send the user back to the application: they need redirect URIs. */
export const REDIRECT_GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'implicit',
  'implicit_hybrid',
];

/** The OAuth response types a grant type gives. */
export const RESPONSE_TYPES_OF_GRANT: Record<GrantType, readonly string[]> = {
  authorization_code: ['code'],
  implicit: ['token', 'id_token'],
  implicit_hybrid: ['code id_token', 'code token', 'code id_token token'],
  refresh_token: [],
  password: [],
};

export const APPLICATION_NAME_MAX = 512;
export const CLIENT_ID_MAX = 300;
export const APPLICATION_NAME_REQUIRED = 'Name is required.';
export const APPLICATION_DESCRIPTION_REQUIRED = 'Description is required.';
export const CLIENT_ID_TOO_LONG = `The client id has to be less than ${CLIENT_ID_MAX} characters long.`;
export const GRANT_TYPES_REQUIRED = 'Grant types are required.';
export const REDIRECT_URIS_REQUIRED = 'Redirect URIs are required for these grant types.';

const requiredMessage = (message: string) => ({
  error: (issue: { input: unknown }) =>
    issue.input === undefined || issue.input === null ? message : undefined,
});

export const ApplicationName = z
  .string(requiredMessage(APPLICATION_NAME_REQUIRED))
  .trim()
  .min(1, APPLICATION_NAME_REQUIRED)
  .max(APPLICATION_NAME_MAX);
export const ApplicationDescription = z
  .string(requiredMessage(APPLICATION_DESCRIPTION_REQUIRED))
  .trim()
  .min(1, APPLICATION_DESCRIPTION_REQUIRED)
  .max(4000);

/** A SIMPLE application's own settings: a free type text and the client id it chose (1 to 300). */
export const SimpleAppSettings = z.object({
  type: z.string().trim().max(64).nullish(),
  client_id: z.string().trim().min(1).max(CLIENT_ID_MAX, CLIENT_ID_TOO_LONG).nullish(),
});

/** The OAuth settings of a BROWSER, WEB or NATIVE application; the server issues the client credentials. */
export const OAuthAppSettings = z.object({
  application_type: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['BROWSER', 'WEB', 'NATIVE']))
    .optional(),
  grant_types: z.array(z.enum(GRANT_TYPES)).max(10).optional(),
  redirect_uris: z
    .array(z.url({ message: 'Invalid redirect URI' }).max(2000))
    .max(50)
    .optional(),
});

export const ApplicationSettings = z.object({
  app: SimpleAppSettings.optional(),
  oauth: OAuthAppSettings.optional(),
});

/** `POST applications/`. */
export const NewApplication = z.object({
  name: ApplicationName,
  description: ApplicationDescription,
  type: ApplicationType.optional(),
  groups: z.array(z.string().min(1)).max(1000).default([]),
  settings: ApplicationSettings.default({}),
});
export type NewApplication = z.infer<typeof NewApplication>;

/** `PUT applications/{id}`: absent fields keep their value; the type is fixed once created. */
export const ApplicationUpdate = z.object({
  name: ApplicationName.optional(),
  description: ApplicationDescription.optional(),
  groups: z.array(z.string().min(1)).max(1000).optional(),
  settings: ApplicationSettings.optional(),
});
export type ApplicationUpdate = z.infer<typeof ApplicationUpdate>;
