import type { Executor } from '../database.js';

/**
 * Ids of the started, deployed APIs whose definition mentions a dynamic-property service: the
 * candidates of the dynamic-properties poll (which then reads each one's deployed definition).
 */
export async function findApiIdsWithDynamicProperties(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('apis')
    .select('id')
    .where('state', '=', 'STARTED')
    .where('deployed_at', 'is not', null)
    .where('definition', 'like', '%"dynamic-property"%')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
