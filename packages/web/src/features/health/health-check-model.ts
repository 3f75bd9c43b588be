import type { HealthCheckService } from '@portico/model';

/** Health-check methods and time units (console-apis.md section 9). */
export const HEALTH_METHODS = ['GET', 'POST', 'PUT'] as const;
export const HEALTH_UNITS = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS'] as const;
export const HEALTH_BODY_MAX = 1000;

/** A new check as Gravitee offered it: every 10 seconds, GET /, status 200. */
export const newCheck = (): HealthCheckService => ({
  enabled: true,
  trigger: { rate: 10, unit: 'SECONDS' },
  steps: [
    {
      request: { method: 'GET', path: '/', fromRoot: false, headers: [] },
      response: { assertions: ['#response.status == 200'] },
    },
  ],
});

/** The problem of each field of an enabled check (section 5), by field name: translation keys. */
export type CheckProblems = Record<string, 'required' | 'rateMin' | 'bodyMax'>;

export function checkProblems(check: HealthCheckService): CheckProblems {
  const problems: CheckProblems = {};
  if (!check.enabled) return problems;
  const rate = check.trigger?.rate;
  if (rate === undefined || Number.isNaN(rate)) problems.rate = 'required';
  else if (!Number.isInteger(rate) || rate < 1) problems.rate = 'rateMin';
  if (!check.trigger?.unit) problems.unit = 'required';
  const step = check.steps?.[0];
  if (!step?.request.method) problems.method = 'required';
  if (!step?.request.path.trim()) problems.path = 'required';
  if ((step?.request.body ?? '').length > HEALTH_BODY_MAX) problems.body = 'bodyMax';
  step?.request.headers.forEach((h, i) => {
    if (!h.name.trim()) problems[`header.${i}.name`] = 'required';
    if (!h.value.trim()) problems[`header.${i}.value`] = 'required';
  });
  step?.response.assertions.forEach((a, i) => {
    if (!a.trim()) problems[`assertion.${i}`] = 'required';
  });
  return problems;
}

/**
 * What is saved (section 4): a disabled check keeps no trigger nor steps; a GET sends no body.
 */
export function cleanCheck(check: HealthCheckService): HealthCheckService {
  if (!check.enabled) {
    const { trigger: _t, steps: _s, ...rest } = check;
    return rest;
  }
  const steps = (check.steps ?? []).map((step) => {
    const { body, ...request } = step.request;
    return { ...step, request: request.method === 'GET' || !body ? request : { ...request, body } };
  });
  return { ...check, steps };
}

/** A check to edit: the saved one completed with the defaults it lacks (a disabled one has no steps). */
export function editableCheck(saved: HealthCheckService | undefined): HealthCheckService {
  const base = newCheck();
  if (!saved) return { ...base, enabled: false };
  return {
    ...saved,
    trigger: saved.trigger ?? base.trigger!,
    steps: saved.steps?.length ? saved.steps : base.steps!,
  };
}
