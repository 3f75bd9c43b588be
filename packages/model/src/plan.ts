import { z } from 'zod';
import { Paths } from './api-definition.js';

/** Plan security types; the creation wizard uses upper case, other screens lower case: both accepted. */
export const PLAN_SECURITY_TYPES = ['KEY_LESS', 'API_KEY', 'OAUTH2', 'JWT'] as const;
export type PlanSecurity = (typeof PLAN_SECURITY_TYPES)[number];
export const PlanSecurity = z
  .string()
  .transform((s) => s.toUpperCase().replace('KEYLESS', 'KEY_LESS').replace('APIKEY', 'API_KEY'))
  .pipe(z.enum(PLAN_SECURITY_TYPES));

export const PLAN_STATUSES = ['STAGING', 'PUBLISHED', 'DEPRECATED', 'CLOSED'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const PlanStatus = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(PLAN_STATUSES));

export const PLAN_VALIDATIONS = ['AUTO', 'MANUAL'] as const;
export const PlanValidation = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(PLAN_VALIDATIONS));

/** JWT plan configuration (the plan's securityDefinition). */
export const JwtSecurityDefinition = z.object({
  signature: z
    .enum(['RSA_RS256', 'RSA_RS384', 'RSA_RS512', 'HMAC_HS256', 'HMAC_HS384', 'HMAC_HS512'])
    .default('RSA_RS256'),
  publicKeyResolver: z.enum(['GIVEN_KEY', 'JWKS_URL']).default('GIVEN_KEY'),
  /** The key (PEM or HMAC secret) for GIVEN_KEY, the JWKS URL for JWKS_URL. */
  resolverParameter: z.string().min(1),
  /** Claim holding the application's client id. */
  clientIdClaim: z.string().default('client_id'),
  userClaim: z.string().default('sub'),
  extractClaims: z.boolean().default(false),
  propagateAuthHeader: z.boolean().default(true),
});

/** OAuth2 plan configuration: the OAuth2 resource of the API that introspects tokens. */
export const OAuth2SecurityDefinition = z.object({
  oauthResource: z.string().min(1),
  extractPayload: z.boolean().default(false),
  checkRequiredScopes: z.boolean().default(false),
  requiredScopes: z.array(z.string()).default([]),
  propagateAuthHeader: z.boolean().default(true),
});

export const ApiKeySecurityDefinition = z.object({
  propagateApiKey: z.boolean().default(false),
});

/** A plan as deployed with its API: what the gateway enforces. */
export const DeployedPlan = z.object({
  id: z.string(),
  name: z.string(),
  security: z.enum(PLAN_SECURITY_TYPES),
  /** JSON text of the security configuration (JwtSecurityDefinition, ...). */
  securityDefinition: z.string().nullable().default(null),
  status: z.enum(PLAN_STATUSES),
  order: z.number().int().default(0),
  paths: Paths.default({}),
  /** Sharding tags restricting the plan; empty for all gateways of the API. */
  tags: z.array(z.string()).default([]),
});
export type DeployedPlan = z.infer<typeof DeployedPlan>;

/** Limits of the plan forms (console-apis.md sections 5 and 9). */
export const PLAN_NAME_MIN = 4;
export const PLAN_NAME_MAX = 50;
export const PLAN_COMMENT_MESSAGE_MAX = 64;
export const PLAN_CHARACTERISTICS_SHOWN = 6;

export const PLAN_NAME_REQUIRED = 'Name is required.';
export const PLAN_NAME_TOO_SHORT = `The name has to be at least ${PLAN_NAME_MIN} characters long.`;
export const PLAN_NAME_TOO_LONG = `The name has to be less than ${PLAN_NAME_MAX} characters long.`;
export const PLAN_DESCRIPTION_REQUIRED = 'Description is required.';
export const PLAN_SECURITY_REQUIRED = 'Security type is required.';
export const PLAN_COMMENT_MESSAGE_TOO_LONG = `The comment message has to be less than ${PLAN_COMMENT_MESSAGE_MAX} characters long.`;

const requiredMessage = (message: string) => ({
  error: (issue: { input: unknown }) =>
    issue.input === undefined || issue.input === null ? message : undefined,
});

/** API (a plan of one API) or CATALOG; lower case accepted. */
export const PLAN_TYPES = ['API', 'CATALOG'] as const;
export const PlanType = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(PLAN_TYPES));

/** The security configuration: JSON text, or the object itself. */
export const SecurityDefinitionInput = z
  .union([z.string().max(100_000), z.record(z.string(), z.unknown())])
  .nullable()
  .transform((v) => (v === null || typeof v === 'string' ? v : JSON.stringify(v)));

const PlanFields = {
  description: z
    .string(requiredMessage(PLAN_DESCRIPTION_REQUIRED))
    .trim()
    .min(1, PLAN_DESCRIPTION_REQUIRED)
    .max(4000),
  validation: PlanValidation,
  securityDefinition: SecurityDefinitionInput,
  characteristics: z.array(z.string().trim().min(1).max(256)).max(100),
  type: PlanType,
  paths: Paths,
  comment_required: z.boolean(),
  comment_message: z.string().max(PLAN_COMMENT_MESSAGE_MAX, PLAN_COMMENT_MESSAGE_TOO_LONG).nullable(),
  excluded_groups: z.array(z.string().min(1)).max(1000),
  tags: z.array(z.string().min(1)).max(100),
  order: z.number().int().min(0).max(1_000_000),
};

/** `POST apis/{id}/plans`: the plan wizard's payload (a new plan is STAGING unless PUBLISHED is asked). */
export const NewPlan = z.object({
  name: z
    .string(requiredMessage(PLAN_NAME_REQUIRED))
    .trim()
    .min(PLAN_NAME_MIN, PLAN_NAME_TOO_SHORT)
    .max(PLAN_NAME_MAX, PLAN_NAME_TOO_LONG),
  /** Without one, an API-key plan (as Gravitee 1.x). */
  security: z.string(requiredMessage(PLAN_SECURITY_REQUIRED)).pipe(PlanSecurity).default('API_KEY'),
  status: PlanStatus.pipe(z.enum(['STAGING', 'PUBLISHED'])).optional(),
  description: PlanFields.description,
  validation: PlanFields.validation.default('MANUAL'),
  securityDefinition: PlanFields.securityDefinition.optional(),
  characteristics: PlanFields.characteristics.default([]),
  type: PlanFields.type.default('API'),
  paths: PlanFields.paths.default({}),
  comment_required: PlanFields.comment_required.default(false),
  comment_message: PlanFields.comment_message.optional(),
  excluded_groups: PlanFields.excluded_groups.default([]),
  tags: PlanFields.tags.default([]),
  order: PlanFields.order.optional(),
});
export type NewPlan = z.infer<typeof NewPlan>;

/**
 * `PUT apis/{id}/plans/{planId}`: the plan as `GET` gives it; absent fields keep their value, read-only
 * ones (id, status, dates) are ignored. `security` may be sent but not changed.
 */
export const PlanUpdate = z.object({
  name: z
    .string(requiredMessage(PLAN_NAME_REQUIRED))
    .trim()
    .min(1, PLAN_NAME_REQUIRED)
    .max(PLAN_NAME_MAX, PLAN_NAME_TOO_LONG)
    .optional(),
  security: PlanSecurity.optional(),
  description: PlanFields.description.optional(),
  validation: PlanFields.validation.optional(),
  securityDefinition: PlanFields.securityDefinition.optional(),
  characteristics: PlanFields.characteristics.optional(),
  type: PlanFields.type.optional(),
  paths: PlanFields.paths.optional(),
  comment_required: PlanFields.comment_required.optional(),
  comment_message: PlanFields.comment_message.optional(),
  excluded_groups: PlanFields.excluded_groups.optional(),
  tags: PlanFields.tags.optional(),
  order: PlanFields.order.optional(),
});
export type PlanUpdate = z.infer<typeof PlanUpdate>;
