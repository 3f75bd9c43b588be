import type { Executor } from '@portico/storage';
import {
  findApisByIds,
  findApplicationsByIds,
  findPendingSubscriptionsOfApis,
  findPlansByIds,
} from '@portico/storage';
import type { Page } from '@portico/model';
import { toPage } from '@portico/model';
import type { PermissionService } from '../permissions/permissions.service.js';

/** A task of the spec: type, data (api, id, application, plan), created_at. */
export interface TaskJson {
  type: 'SUBSCRIPTION_APPROVAL';
  data: {
    id: string;
    api: string;
    application: string;
    plan: string;
    request: string | null;
    created_at: number;
  };
  created_at: number;
}

/**
 * A user's tasks: the pending subscriptions of the APIs on which the user may validate subscriptions
 * (api-subscription-u, directly or through a group; administrators: all APIs).
 */
export async function userTasks(
  db: Executor,
  permissions: PermissionService,
  userId: string,
  page: number,
  size: number,
): Promise<Page<TaskJson>> {
  const apiIds = await permissions.apisWith(userId, 'SUBSCRIPTION', 'U');
  const { rows, total } = await findPendingSubscriptionsOfApis(db, apiIds, {
    offset: (page - 1) * size,
    limit: size,
  });
  const [apis, applications, plans] = await Promise.all([
    findApisByIds(db, [...new Set(rows.map((r) => r.api_id))]),
    findApplicationsByIds(db, [...new Set(rows.map((r) => r.application_id))]),
    findPlansByIds(db, [...new Set(rows.map((r) => r.plan_id))]),
  ]);
  const metadata: Page<TaskJson>['metadata'] = {};
  for (const a of apis) metadata[a.id] = { name: a.name, version: a.version };
  for (const a of applications) metadata[a.id] = { name: a.name };
  for (const p of plans) metadata[p.id] = { name: p.name, security: p.security };
  const data = rows.map((s): TaskJson => ({
    type: 'SUBSCRIPTION_APPROVAL',
    data: {
      id: s.id,
      api: s.api_id,
      application: s.application_id,
      plan: s.plan_id,
      request: s.request,
      created_at: s.created_at,
    },
    created_at: s.created_at,
  }));
  return toPage(data, page, size, total, metadata);
}
