import { z } from 'zod';
import { ContextPath } from './api-definition.js';

/**
 * The API entity around its definition: creation payload, visibility, state and the import options,
 * with the spec's messages (console-apis.md sections 3 and 5). Server and forms use the same schemas.
 */

export const API_VISIBILITIES = ['PUBLIC', 'PRIVATE'] as const;
export type ApiVisibility = (typeof API_VISIBILITIES)[number];
/** PUBLIC or PRIVATE; the console's lower-case spelling is accepted too. */
export const ApiVisibility = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(API_VISIBILITIES));

export const API_STATES = ['STARTED', 'STOPPED'] as const;
export type ApiState = (typeof API_STATES)[number];

/** Portal publication of an API (independent of the gateway state). */
export const API_LIFECYCLE_STATES = [
  'CREATED',
  'PUBLISHED',
  'UNPUBLISHED',
  'DEPRECATED',
  'ARCHIVED',
] as const;
export const ApiLifecycleState = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(API_LIFECYCLE_STATES));

export const API_NAME_REQUIRED = 'Name is required.';
export const API_NAME_TOO_LONG = 'The name has to be less than 512 characters long';
export const API_VERSION_REQUIRED = 'Version is required.';
export const API_VERSION_TOO_LONG = 'The version has to be less than 32 characters long';
export const API_DESCRIPTION_REQUIRED = 'Description is required.';
export const CONTEXT_PATH_REQUIRED = 'Context path is required.';
export const ENDPOINT_REQUIRED = 'Endpoint is required.';
export const ENDPOINT_INVALID = 'Endpoint is not a valid URL.';

const required = (message: string) => ({
  error: (issue: { input: unknown }) =>
    issue.input === undefined || issue.input === null ? message : undefined,
});

export const ApiName = z
  .string(required(API_NAME_REQUIRED))
  .trim()
  .min(1, API_NAME_REQUIRED)
  .max(512, API_NAME_TOO_LONG);
export const ApiVersion = z
  .string(required(API_VERSION_REQUIRED))
  .trim()
  .min(1, API_VERSION_REQUIRED)
  .max(32, API_VERSION_TOO_LONG);
export const ApiDescription = z
  .string(required(API_DESCRIPTION_REQUIRED))
  .trim()
  .min(1, API_DESCRIPTION_REQUIRED);

/** A backend URL: http or https, with a host. */
export const EndpointUrl = z
  .string(required(ENDPOINT_REQUIRED))
  .trim()
  .min(1, ENDPOINT_REQUIRED)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, ENDPOINT_INVALID);

export const RequiredContextPath = z
  .string(required(CONTEXT_PATH_REQUIRED))
  .trim()
  .min(1, CONTEXT_PATH_REQUIRED)
  .pipe(ContextPath);

/** `POST apis`: the creation wizard's General and Gateway steps. */
export const NewApi = z.object({
  name: ApiName,
  version: ApiVersion,
  description: ApiDescription,
  context_path: RequiredContextPath,
  endpoint: EndpointUrl,
});
export type NewApi = z.infer<typeof NewApi>;

/** Import: the file must be one of these. */
export const IMPORT_INVALID_FILE = 'Input file must be a valid API definition file.';
export const IMPORT_INVALID_JSON = 'Invalid json file.';

/** Options of the import dialogs and calls: where the file comes from and what to create from it. */
export const ApiImportRequest = z.object({
  type: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['INLINE', 'URL']))
    .default('INLINE'),
  /** The file content (INLINE) or its http(s) address (URL). */
  payload: z.string().min(1, 'A file or a URL is required.'),
  with_documentation: z.boolean().default(false),
  with_path_mapping: z.boolean().default(false),
  with_policy_paths: z.boolean().default(false),
  with_policy_mocks: z.boolean().default(false),
});
export type ApiImportRequest = z.infer<typeof ApiImportRequest>;

/** Export targets: the current shape and two older ones that drop what they cannot hold. */
export const API_EXPORT_VERSIONS = ['current', '1.20', '1.15'] as const;
export type ApiExportVersion = (typeof API_EXPORT_VERSIONS)[number];
export const API_EXPORT_FIELDS = ['groups', 'members', 'pages', 'plans', 'metadata'] as const;
export type ApiExportField = (typeof API_EXPORT_FIELDS)[number];
