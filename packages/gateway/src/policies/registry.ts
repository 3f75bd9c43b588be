import { z } from 'zod';
import type { PolicyDefinition } from './policy.js';
import { assignContent } from './assign-content/assign-content.policy.js';
import { cache } from './cache/cache.policy.js';
import { ipFiltering } from './ip-filtering/ip-filtering.policy.js';
import { jsonValidation } from './json-validation/json-validation.policy.js';
import { latency } from './latency/latency.policy.js';
import { mock } from './mock/mock.policy.js';
import { overrideHttpMethod } from './override-http-method/override-http-method.policy.js';
import { quota } from './quota/quota.policy.js';
import { rateLimit } from './rate-limit/rate-limit.policy.js';
import { requestContentLimit } from './request-content-limit/request-content-limit.policy.js';
import { resourceFiltering } from './resource-filtering/resource-filtering.policy.js';
import { transformHeaders } from './transform-headers/transform-headers.policy.js';
import { transformQueryParameters } from './transform-queryparams/transform-queryparams.policy.js';
import { urlRewriting } from './url-rewriting/url-rewriting.policy.js';

/** Every policy the gateway implements, by id. */
export const POLICIES: ReadonlyMap<string, PolicyDefinition<unknown>> = new Map(
  (
    [
      rateLimit,
      quota,
      resourceFiltering,
      ipFiltering,
      requestContentLimit,
      jsonValidation,
      transformHeaders,
      transformQueryParameters,
      overrideHttpMethod,
      assignContent,
      urlRewriting,
      cache,
      latency,
      mock,
    ] as PolicyDefinition<never>[]
  ).map((p) => [p.id, p as unknown as PolicyDefinition<unknown>]),
);

/** What the console lists: id, name, description and the configuration's JSON schema. */
export interface PolicyDescription {
  id: string;
  name: string;
  description: string;
  schema: unknown;
}

export function describePolicy(policy: PolicyDefinition<unknown>): PolicyDescription {
  return {
    id: policy.id,
    name: policy.name,
    description: policy.description,
    schema: z.toJSONSchema(policy.configSchema, { io: 'input', unrepresentable: 'any' }),
  };
}

/** Validates a policy configuration; returns the parsed config or the first problem (path and message). */
export function validatePolicyConfiguration(
  policyId: string,
  configuration: unknown,
): { ok: true; config: unknown } | { ok: false; field: string; message: string } {
  const policy = POLICIES.get(policyId);
  if (!policy) return { ok: false, field: '', message: `Unknown policy ${policyId}` };
  const result = policy.configSchema.safeParse(configuration ?? {});
  if (result.success) return { ok: true, config: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false, field: issue.path.join('.'), message: issue.message };
}
