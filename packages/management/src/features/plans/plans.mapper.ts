import type { DeployedPlan, Paths } from '@portico/model';
import type { PlanRow } from '@portico/storage';

const parse = <T>(json: string | null, fallback: T): T => {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

/** A plan on the wire (console-apis.md section 3): snake_case, security and status in upper case. */
export function toPlanJson(row: PlanRow) {
  return {
    id: row.id,
    api: row.api_id,
    name: row.name,
    description: row.description,
    validation: row.validation,
    security: row.security as DeployedPlan['security'],
    securityDefinition: row.security_definition,
    status: row.status as DeployedPlan['status'],
    order: row.order,
    characteristics: parse<string[]>(row.characteristics, []),
    type: row.type,
    paths: parse<Paths>(row.paths, {}),
    comment_required: row.comment_required === 1,
    comment_message: row.comment_message,
    excluded_groups: parse<string[]>(row.excluded_groups, []),
    tags: parse<string[]>(row.tags, []),
    created_at: row.created_at,
    updated_at: row.updated_at,
    published_at: row.published_at,
    closed_at: row.closed_at,
  };
}
export type PlanJson = ReturnType<typeof toPlanJson>;

/**
 * What the portal shows of a plan to a reader without api-plan-r: its card and subscription terms,
 * never its configuration (path rules and policies, which can hold backend credentials, the security
 * configuration, the excluded groups).
 */
export function toPortalPlanJson(row: PlanRow) {
  const {
    paths: _paths,
    securityDefinition: _securityDefinition,
    excluded_groups: _excludedGroups,
    ...shown
  } = toPlanJson(row);
  return shown;
}

/** What an audit entry keeps of a plan. */
export const auditedPlan = (row: PlanRow) => toPlanJson(row);
