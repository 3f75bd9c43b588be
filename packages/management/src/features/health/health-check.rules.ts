import type { ApiDefinition, HealthCheckService } from '@portico/model';
import { invalidField } from '@portico/model';
import { conditionError } from '@portico/gateway';

/** Time units of a health-check trigger (console-apis.md section 9). */
export const HEALTH_CHECK_UNITS = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS'] as const;

/** Whether an endpoint's check is the API's (no check of its own, or `inherit` not false). */
export const inheritsApiCheck = (check: HealthCheckService | undefined) => !check || check.inherit !== false;

/**
 * One enabled check (section 5): a trigger (interval at least 1, a unit of section 9), a request
 * (method, path; body only for non-GET methods) and assertions that are CEL expressions the gateway
 * can run. 400 naming the field (`services.health-check.steps.0.response.assertions.1`).
 */
function validateCheck(check: HealthCheckService, at: string): void {
  if (!check.enabled) return;
  if (!check.trigger) throw invalidField(`${at}.trigger`, 'An interval and a time unit are required.');
  if (!Number.isInteger(check.trigger.rate) || check.trigger.rate < 1)
    throw invalidField(`${at}.trigger.rate`, 'The interval must be a number of at least 1.');
  if (!(HEALTH_CHECK_UNITS as readonly string[]).includes(check.trigger.unit))
    throw invalidField(
      `${at}.trigger.unit`,
      `The time unit must be one of ${HEALTH_CHECK_UNITS.join(', ')}.`,
    );
  // A check without steps (as some imported definitions have) runs nothing: the gateway skips it.
  const step = check.steps?.[0];
  if (!step) return;
  const request = step.request;
  if (!request.path.trim()) throw invalidField(`${at}.steps.0.request.path`, 'The path is required.');
  if (request.body !== undefined && request.body.length > 1000)
    throw invalidField(`${at}.steps.0.request.body`, 'The body must be at most 1000 characters.');
  for (const [i, header] of request.headers.entries()) {
    if (!header.name.trim() || !header.value.trim())
      throw invalidField(`${at}.steps.0.request.headers.${i}`, 'Header names and values are required.');
  }
  const assertions = step.response.assertions;
  if (assertions.length === 0)
    throw invalidField(`${at}.steps.0.response.assertions`, 'At least one assertion is required.');
  for (const [i, assertion] of assertions.entries()) {
    const field = `${at}.steps.0.response.assertions.${i}`;
    if (!assertion.trim()) throw invalidField(field, 'The assertion is required.');
    const problem = conditionError(assertion);
    if (problem) throw invalidField(field, `Invalid assertion: ${problem}`);
  }
}

/** The API-level check and each endpoint's own (not inherited) check of a definition. */
export function validateHealthChecks(definition: Pick<ApiDefinition, 'proxy' | 'services'>): void {
  const apiCheck = definition.services['health-check'];
  if (apiCheck) validateCheck(apiCheck, 'services.health-check');
  for (const [g, group] of definition.proxy.groups.entries()) {
    for (const [e, endpoint] of group.endpoints.entries()) {
      if (endpoint.healthcheck && !inheritsApiCheck(endpoint.healthcheck))
        validateCheck(endpoint.healthcheck, `proxy.groups.${g}.endpoints.${e}.healthcheck`);
    }
  }
}

/** Every health-check configuration of a definition, by where it is kept, as comparable text. */
function checksOf(definition: Pick<ApiDefinition, 'proxy' | 'services'>): Map<string, string> {
  const out = new Map<string, string>();
  const apiCheck = definition.services['health-check'];
  if (apiCheck) out.set('', JSON.stringify(apiCheck));
  for (const group of definition.proxy.groups)
    for (const endpoint of group.endpoints)
      if (endpoint.healthcheck)
        out.set(`${group.name}\n${endpoint.name}`, JSON.stringify(endpoint.healthcheck));
  return out;
}

/**
 * Whether saving `after` over `before` changes a health-check configuration (the API's, or an
 * endpoint's kept under the same group and endpoint name): that needs api-health-c or api-health-u.
 * An endpoint added with a check counts; one removed with its check does not.
 */
export function healthChecksChanged(
  before: Pick<ApiDefinition, 'proxy' | 'services'>,
  after: Pick<ApiDefinition, 'proxy' | 'services'>,
): boolean {
  const was = checksOf(before);
  const now = checksOf(after);
  // Removing an endpoint (and its check) is the endpoint's change; removing the API's check is not.
  for (const key of new Set(['', ...now.keys()])) if (was.get(key) !== now.get(key)) return true;
  return false;
}
