import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../database.js';
import { jsonListHolds } from '../sql-text.js';

/** Who looks at the catalogue: a user (or nobody, `userId: null`) and the groups the user belongs to. */
export interface ApiViewer {
  userId: string | null;
  groupIds: readonly string[];
}

/**
 * Lifecycle states in which a PUBLIC API is withdrawn from the portal: only its members (directly or
 * through one of its groups) still see it, as they see a PRIVATE API.
 */
export const WITHDRAWN_LIFECYCLE_STATES = ['UNPUBLISHED', 'ARCHIVED'] as const;

/**
 * The condition on `apis` rows that the viewer may see: published PUBLIC APIs, and the APIs the user is
 * a member of or that belong to one of the user's groups.
 */
export function apiVisibleTo(
  eb: ExpressionBuilder<Database, 'apis'>,
  viewer: ApiViewer,
): Expression<SqlBool> {
  const ors: Expression<SqlBool>[] = [
    eb.and([
      eb('apis.visibility', '=', 'PUBLIC'),
      eb('apis.lifecycle_state', 'not in', [...WITHDRAWN_LIFECYCLE_STATES]),
    ]),
  ];
  if (viewer.userId !== null) {
    ors.push(
      eb(
        'apis.id',
        'in',
        eb
          .selectFrom('memberships')
          .select('memberships.reference_id')
          .where('memberships.member_type', '=', 'USER')
          .where('memberships.member_id', '=', viewer.userId)
          .where('memberships.reference_type', '=', 'API'),
      ),
    );
  }
  for (const g of viewer.groupIds) ors.push(jsonListHolds('apis.groups', g));
  return eb.or(ors);
}

/** Whether everybody, anonymous visitors included, may see the API: PUBLIC and not withdrawn. */
export function isPubliclyVisible(api: { visibility: string; lifecycle_state: string }): boolean {
  return (
    api.visibility === 'PUBLIC' &&
    !(WITHDRAWN_LIFECYCLE_STATES as readonly string[]).includes(api.lifecycle_state)
  );
}
