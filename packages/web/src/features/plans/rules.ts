import {
  PLAN_CHARACTERISTICS_SHOWN,
  PLAN_COMMENT_MESSAGE_MAX,
  PLAN_NAME_MAX,
  PLAN_NAME_MIN,
  PLAN_STATUSES,
} from '@portico/model';

/** The limits of the plan screens (console-apis.md sections 5 and 9), shared with the server. */
export { PLAN_CHARACTERISTICS_SHOWN, PLAN_COMMENT_MESSAGE_MAX, PLAN_NAME_MAX, PLAN_NAME_MIN, PLAN_STATUSES };

/** The policies the Restrictions step edits; the others make the Policies step's chain. */
export const RESTRICTION_POLICIES = ['rate-limit', 'quota', 'resource-filtering'] as const;
export type RestrictionPolicy = (typeof RESTRICTION_POLICIES)[number];

/** A policy description has at most 500 characters (console-apis.md section 9). */
export const POLICY_DESCRIPTION_MAX = 500;
