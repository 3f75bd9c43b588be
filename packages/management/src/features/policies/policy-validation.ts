import { validatePolicyConfiguration } from '@portico/gateway';
import type { Paths } from '@portico/model';
import { invalidField, policyOfStep } from '@portico/model';

/**
 * Validates every policy step of a `paths` map (a plan's policies, its rate-limit, quota and
 * resource-filtering restrictions) with the schema the gateway enforces; 400 naming the field, e.g.
 * `paths./.0.rate-limit.rate.limit`.
 */
export function assertValidPaths(paths: Paths, field = 'paths'): void {
  for (const [path, steps] of Object.entries(paths)) {
    if (!path.startsWith('/')) throw invalidField(`${field}.${path}`, 'The path must start with /');
    steps.forEach((step, index) => {
      const where = `${field}.${path}.${index}`;
      const policy = policyOfStep(step);
      if (!policy) throw invalidField(where, 'A policy is required.');
      const result = validatePolicyConfiguration(policy.policy, policy.configuration);
      if (!result.ok) {
        throw result.field
          ? invalidField(`${where}.${policy.policy}.${result.field}`, result.message)
          : invalidField(where, result.message);
      }
    });
  }
}
