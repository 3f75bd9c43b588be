import type { PolicyStep } from '@portico/model';
import { policyOfStep } from '@portico/model';
import type { JsonObject, JsonSchema } from '../../../../shared/ui/json-schema-form/schema';
import { defaultValue, isValid, withDefaults } from '../../../../shared/ui/json-schema-form/schema';
import type { Plan, PlanInput, PlanSecurity, PlanValidation, PolicyDescription } from '../../api/types';
import type { RestrictionPolicy } from '../../rules';
import {
  PLAN_COMMENT_MESSAGE_MAX,
  PLAN_NAME_MAX,
  PLAN_NAME_MIN,
  POLICY_DESCRIPTION_MAX,
  RESTRICTION_POLICIES,
} from '../../rules';

/** One policy of the plan's chain (the Policies step). */
export interface ChainPolicy {
  /** A key of the list (not saved). */
  key: string;
  policy: string;
  description: string;
  enabled: boolean;
  methods: string[];
  configuration: JsonObject;
}

/** A restriction of the Restrictions step: rate limit, quota or path authorization. */
export interface Restriction {
  enabled: boolean;
  configuration: JsonObject;
  /** Methods of the step as saved (all when empty); kept as they were. */
  methods: string[];
}

/** The plan wizard's values, all four steps. */
export interface PlanFormValues {
  name: string;
  description: string;
  characteristics: string[];
  comment_required: boolean;
  comment_message: string;
  validation: PlanValidation;
  excluded_groups: string[];
  security: PlanSecurity | null;
  securityConfig: JsonObject;
  restrictions: Record<RestrictionPolicy, Restriction>;
  policies: ChainPolicy[];
}

export type WizardStep = 'define' | 'secure' | 'restrictions' | 'policies';
export const WIZARD_STEPS: readonly WizardStep[] = ['define', 'secure', 'restrictions', 'policies'];

/** Validation messages: translation keys, translated where they show. */
export const PlanMessages = {
  nameRequired: 'plans.validation.nameRequired',
  nameTooShort: 'plans.validation.nameTooShort',
  nameTooLong: 'plans.validation.nameTooLong',
  descriptionRequired: 'plans.validation.descriptionRequired',
  commentMessageTooLong: 'plans.validation.commentMessageTooLong',
  securityRequired: 'plans.validation.securityRequired',
  configurationInvalid: 'plans.validation.configurationInvalid',
  policyDescriptionTooLong: 'plans.validation.policyDescriptionTooLong',
} as const;

let keys = 0;
export const newKey = () => `policy-${Date.now().toString(36)}-${(keys++).toString(36)}`;

const isRestriction = (policy: string): policy is RestrictionPolicy =>
  (RESTRICTION_POLICIES as readonly string[]).includes(policy);

const asObject = (value: unknown): JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};

const parseJson = (text: string | null): JsonObject => {
  if (!text) return {};
  try {
    return asObject(JSON.parse(text));
  } catch {
    return {};
  }
};

/** The restrictions and chain of a plan's `/` path; other paths are kept as they are. */
function splitSteps(steps: PolicyStep[]): {
  restrictions: Partial<Record<RestrictionPolicy, Restriction>>;
  policies: ChainPolicy[];
} {
  const restrictions: Partial<Record<RestrictionPolicy, Restriction>> = {};
  const policies: ChainPolicy[] = [];
  for (const step of steps) {
    const found = policyOfStep(step);
    if (!found) continue;
    const configuration = asObject(found.configuration);
    const methods = step.methods ?? [];
    if (isRestriction(found.policy) && !restrictions[found.policy]) {
      restrictions[found.policy] = { enabled: step.enabled !== false, configuration, methods };
    } else {
      policies.push({
        key: newKey(),
        policy: found.policy,
        description: step.description ?? '',
        enabled: step.enabled !== false,
        methods,
        configuration,
      });
    }
  }
  return { restrictions, policies };
}

/** The wizard's starting values: a new plan, or the plan to edit. */
export function formValuesOf(plan: Plan | undefined): PlanFormValues {
  const { restrictions, policies } = splitSteps(plan?.paths['/'] ?? []);
  const restriction = (policy: RestrictionPolicy): Restriction =>
    restrictions[policy] ?? { enabled: false, configuration: {}, methods: [] };
  return {
    name: plan?.name ?? '',
    description: plan?.description ?? '',
    characteristics: plan?.characteristics ?? [],
    comment_required: plan?.comment_required ?? false,
    comment_message: plan?.comment_message ?? '',
    validation: plan?.validation ?? 'MANUAL',
    excluded_groups: plan?.excluded_groups ?? [],
    security: plan?.security ?? null,
    securityConfig: parseJson(plan?.securityDefinition ?? null),
    restrictions: {
      'rate-limit': restriction('rate-limit'),
      quota: restriction('quota'),
      'resource-filtering': restriction('resource-filtering'),
    },
    policies,
  };
}

/** A step of a path: its fields and its configuration under the policy id. */
const stepOf = (policy: string, configuration: JsonObject, extra: Partial<ChainPolicy>): PolicyStep => ({
  ...(extra.methods && extra.methods.length > 0 ? { methods: extra.methods as PolicyStep['methods'] } : {}),
  enabled: extra.enabled ?? true,
  ...(extra.description ? { description: extra.description } : {}),
  [policy]: configuration,
});

/**
 * What the server takes. The `/` path holds the enabled restrictions (rate limit, quota, path
 * authorization) then the policy chain; the plan's other paths stay as they were. A key-less plan is
 * validated automatically.
 */
export function planInputOf(values: PlanFormValues, original?: Plan): PlanInput {
  const root: PolicyStep[] = [
    ...RESTRICTION_POLICIES.filter((policy) => values.restrictions[policy].enabled).map((policy) => {
      const restriction = values.restrictions[policy];
      return stepOf(policy, restriction.configuration, { methods: restriction.methods, enabled: true });
    }),
    ...values.policies.map((p) => stepOf(p.policy, p.configuration, p)),
  ];
  const { '/': _root, ...others } = original?.paths ?? {};
  const security = values.security ?? 'KEY_LESS';
  const config = values.securityConfig;
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    security,
    validation: security === 'KEY_LESS' ? 'AUTO' : values.validation,
    securityDefinition:
      security === 'KEY_LESS' || Object.keys(config).length === 0 ? null : JSON.stringify(config),
    characteristics: values.characteristics.map((c) => c.trim()).filter(Boolean),
    paths: root.length > 0 || Object.keys(others).length > 0 ? { ...others, '/': root } : {},
    comment_required: values.comment_required,
    comment_message: values.comment_message.trim() || null,
    excluded_groups: values.excluded_groups,
  };
}

/** The schemas the wizard checks configurations with. */
export interface PlanSchemas {
  security: JsonSchema | undefined;
  policies: ReadonlyMap<string, PolicyDescription>;
}

export type PlanErrors = Record<string, string>;

/** The problems of the wizard's values, by field path (`name`, `restrictions.quota`, `policies.0`). */
export function planErrors(
  values: PlanFormValues,
  mode: 'create' | 'edit',
  schemas: PlanSchemas,
): PlanErrors {
  const errors: PlanErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = PlanMessages.nameRequired;
  else if (mode === 'create' && name.length < PLAN_NAME_MIN) errors.name = PlanMessages.nameTooShort;
  else if (name.length > PLAN_NAME_MAX) errors.name = PlanMessages.nameTooLong;
  if (!values.description.trim()) errors.description = PlanMessages.descriptionRequired;
  if (values.comment_message.length > PLAN_COMMENT_MESSAGE_MAX)
    errors.comment_message = PlanMessages.commentMessageTooLong;
  if (!values.security) errors.security = PlanMessages.securityRequired;
  else if (schemas.security && !isValid(schemas.security, values.securityConfig))
    errors.securityConfig = PlanMessages.configurationInvalid;
  for (const policy of RESTRICTION_POLICIES) {
    const restriction = values.restrictions[policy];
    const schema = schemas.policies.get(policy)?.schema;
    if (restriction.enabled && schema && !isValid(schema, restriction.configuration))
      errors[`restrictions.${policy}`] = PlanMessages.configurationInvalid;
  }
  values.policies.forEach((p, index) => {
    const schema = schemas.policies.get(p.policy)?.schema;
    if (p.description.length > POLICY_DESCRIPTION_MAX)
      errors[`policies.${index}.description`] = PlanMessages.policyDescriptionTooLong;
    if (schema && !isValid(schema, p.configuration))
      errors[`policies.${index}`] = PlanMessages.configurationInvalid;
  });
  return errors;
}

/** The step a field of the errors belongs to. */
export function stepOfField(field: string): WizardStep {
  if (field === 'security' || field === 'securityConfig') return 'secure';
  if (field.startsWith('restrictions.')) return 'restrictions';
  if (field.startsWith('policies.')) return 'policies';
  return 'define';
}

/** A new restriction or policy starts with its schema's defaults. */
export const configurationDefaults = (schema: JsonSchema | undefined): JsonObject =>
  schema ? asObject(defaultValue(schema)) : {};

/** A saved configuration, completed with the defaults of fields it lacks. */
export const completed = (schema: JsonSchema | undefined, configuration: JsonObject): JsonObject =>
  schema ? asObject(withDefaults(schema, configuration)) : configuration;
