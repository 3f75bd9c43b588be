import type { Executor } from '../database.js';
import type { NewSubscriptionRow, SubscriptionRow, SubscriptionRowUpdate } from './subscriptions.table.js';

export async function findSubscriptionById(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSubscription(db: Executor, row: NewSubscriptionRow): Promise<void> {
  await db.insertInto('subscriptions').values(row).execute();
}

/** Pending subscriptions of some APIs, oldest first: the approval tasks of the users who validate them. */
export async function findPendingSubscriptionsOfApis(
  db: Executor,
  apiIds: readonly string[] | 'all',
  page: { offset: number; limit: number },
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  if (apiIds !== 'all' && apiIds.length === 0) return { rows: [], total: 0 };
  let base = db.selectFrom('subscriptions').where('status', '=', 'PENDING');
  if (apiIds !== 'all') base = base.where('api_id', 'in', apiIds);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** How many subscriptions of an API have one of these statuses. */
export async function countSubscriptionsOfApi(
  db: Executor,
  apiId: string,
  statuses: readonly string[],
): Promise<number> {
  if (statuses.length === 0) return 0;
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('api_id', '=', apiId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Changes some columns of a subscription; answers the number of rows changed. */
export async function updateSubscription(
  db: Executor,
  id: string,
  changes: SubscriptionRowUpdate,
): Promise<number> {
  const result = await db.updateTable('subscriptions').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Which subscriptions a list or a rule is about; an absent criterion matches all, an empty list none. */
export interface SubscriptionFilter {
  apiIds?: readonly string[] | undefined;
  applicationIds?: readonly string[] | undefined;
  planIds?: readonly string[] | undefined;
  statuses?: readonly string[] | undefined;
}

function filtered(db: Executor, filter: SubscriptionFilter) {
  let q = db.selectFrom('subscriptions');
  if (filter.apiIds) q = q.where('api_id', 'in', filter.apiIds);
  if (filter.applicationIds) q = q.where('application_id', 'in', filter.applicationIds);
  if (filter.planIds) q = q.where('plan_id', 'in', filter.planIds);
  if (filter.statuses) q = q.where('status', 'in', filter.statuses);
  return q;
}

const matchesNothing = (filter: SubscriptionFilter) =>
  [filter.apiIds, filter.applicationIds, filter.planIds, filter.statuses].some((l) => l?.length === 0);

/** Every subscription matching the filter, newest first. */
export async function findSubscriptions(
  db: Executor,
  filter: SubscriptionFilter,
): Promise<SubscriptionRow[]> {
  if (matchesNothing(filter)) return [];
  return filtered(db, filter).selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
}

/** One page of the subscriptions matching the filter, newest first, and how many match in all. */
export async function searchSubscriptions(
  db: Executor,
  filter: SubscriptionFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  if (matchesNothing(filter)) return { rows: [], total: 0 };
  const [rows, count] = await Promise.all([
    filtered(db, filter)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The applications having a subscription of one of these statuses to the API (its subscribers). */
export async function findSubscriberIdsOfApi(
  db: Executor,
  apiId: string,
  statuses: readonly string[],
): Promise<string[]> {
  if (statuses.length === 0) return [];
  const rows = await db
    .selectFrom('subscriptions')
    .select('application_id')
    .distinct()
    .where('api_id', '=', apiId)
    .where('status', 'in', statuses)
    .execute();
  return rows.map((r) => r.application_id);
}

/** The APIs to which the application has a subscription of one of these statuses. */
export async function findSubscribedApiIdsOfApplication(
  db: Executor,
  applicationId: string,
  statuses: readonly string[],
): Promise<string[]> {
  if (statuses.length === 0) return [];
  const rows = await db
    .selectFrom('subscriptions')
    .select('api_id')
    .distinct()
    .where('application_id', '=', applicationId)
    .where('status', 'in', statuses)
    .execute();
  return rows.map((r) => r.api_id);
}

/** How many subscriptions of a plan have one of these statuses. */
export async function countSubscriptionsOfPlan(
  db: Executor,
  planId: string,
  statuses: readonly string[],
): Promise<number> {
  if (statuses.length === 0) return 0;
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('plan_id', '=', planId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
