import type { Executor, SubscriptionRow, UserRow } from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';
import { auditedSubscription } from './subscriptions.mapper.js';

/**
 * Audits a change of a subscription or of one of its keys on both sides: in the API's trail and in
 * the application's.
 */
export async function auditSubscription(
  audit: AuditService,
  db: Executor,
  actor: UserRow | undefined,
  event: string,
  subscription: SubscriptionRow,
  change: { before?: unknown; after?: unknown; properties?: Record<string, string> } = {},
): Promise<void> {
  const properties = {
    SUBSCRIPTION: subscription.id,
    API: subscription.api_id,
    PLAN: subscription.plan_id,
    APPLICATION: subscription.application_id,
    ...change.properties,
  };
  for (const [referenceType, referenceId] of [
    ['API', subscription.api_id],
    ['APPLICATION', subscription.application_id],
  ] as const) {
    await audit.record(db, {
      referenceType,
      referenceId,
      userId: actor?.id,
      event,
      properties,
      before: change.before,
      after: change.after,
    });
  }
}

/** The before/after of a subscription change, for `auditSubscription`. */
export const subscriptionChange = (before: SubscriptionRow | undefined, after: SubscriptionRow) => ({
  before: before ? auditedSubscription(before) : undefined,
  after: auditedSubscription(after),
});
