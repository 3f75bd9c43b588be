import type { ApiRow, Executor } from '@portico/storage';
import {
  countSubscriptionsOfApi,
  deleteApi,
  deleteMembershipsOfReference,
  deleteMetadata,
  deleteNotificationSettingsOf,
  deletePagesOfReference,
  deletePlansOfApi,
  deleteTopApi,
  findPlansByApi,
  replaceApiContextPaths,
} from '@portico/storage';
import { API_ACTIVE_PLANS, API_ACTIVE_SUBSCRIPTIONS, API_RUNNING, apiNotDeletable } from './apis.errors.js';
import { ACTIVE_PLAN_STATUSES, ACTIVE_SUBSCRIPTION_STATUSES } from './apis.types.js';

/** 400 unless the API is stopped, without published or deprecated plans nor live subscriptions. */
export async function assertDeletable(trx: Executor, row: ApiRow): Promise<void> {
  if (row.state === 'STARTED') throw apiNotDeletable(API_RUNNING);
  if ((await findPlansByApi(trx, row.id, ACTIVE_PLAN_STATUSES)).length > 0) {
    throw apiNotDeletable(API_ACTIVE_PLANS);
  }
  if ((await countSubscriptionsOfApi(trx, row.id, ACTIVE_SUBSCRIPTION_STATUSES)) > 0) {
    throw apiNotDeletable(API_ACTIVE_SUBSCRIPTIONS);
  }
}

/** Deletes the API with its plans, pages, metadata, members, top-API entry, context paths, settings. */
export async function deleteApiAndDependents(trx: Executor, id: string): Promise<void> {
  await deletePlansOfApi(trx, id);
  await deletePagesOfReference(trx, 'API', id);
  await deleteMetadata(trx, 'API', id);
  await deleteMembershipsOfReference(trx, 'API', id);
  await deleteTopApi(trx, id);
  await replaceApiContextPaths(trx, id, []);
  await deleteApi(trx, id);
  await deleteNotificationSettingsOf(trx, 'API', id);
}
