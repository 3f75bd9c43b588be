import type {
  Database,
  Executor,
  PlanRow,
  SubscriptionRow,
  SubscriptionRowUpdate,
  UserRow,
} from '@portico/storage';
import { findSubscriptionById, updateSubscription } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { AfterCommit } from './after-commit.js';
import type { ApiKeyService } from './api-keys.service.js';
import type { SubscriptionNotices } from './subscription-notices.js';
import { auditSubscription, subscriptionChange } from './subscriptions.audit.js';
import { subscriptionNotFound } from './subscriptions.errors.js';

/** Subscriptions that count as the application's one subscription to a plan (and keep keys alive). */
export const LIVE_SUBSCRIPTION_STATUSES = ['PENDING', 'ACCEPTED', 'PAUSED'];

export interface SubscriptionServiceDeps {
  db: Kysely<Database>;
  audit: AuditService;
  keys: ApiKeyService;
  notices: SubscriptionNotices;
  now: () => number;
}

/**
 * How one subscription changes: found (404 otherwise), written with a fresh `updated_at`, audited on the
 * API and the application, and announced to the gateways once the transaction commits. The lifecycle
 * and the subscribe rules build on these steps.
 */
export class SubscriptionChanges {
  protected readonly db: Kysely<Database>;

  constructor(protected readonly deps: SubscriptionServiceDeps) {
    this.db = deps.db;
  }

  /** Announces the committed changes and sends the mails. */
  flush(after: AfterCommit): Promise<void> {
    return this.deps.keys.flush(after);
  }

  protected stamp(row: { updated_at: number }): number {
    return Math.max(this.deps.now(), row.updated_at + 1);
  }

  /** The subscription, or 404. */
  async get(id: string, db: Executor = this.db): Promise<SubscriptionRow> {
    const s = await findSubscriptionById(db, id);
    if (!s) throw subscriptionNotFound(id);
    return s;
  }

  /** The subscription of an API, or 404 (also for a subscription to another API). */
  async ofApi(apiId: string, id: string, db: Executor = this.db): Promise<SubscriptionRow> {
    const s = await this.get(id, db);
    if (s.api_id !== apiId) throw subscriptionNotFound(id);
    return s;
  }

  /** The subscription of an application, or 404. */
  async ofApplication(applicationId: string, id: string, db: Executor = this.db): Promise<SubscriptionRow> {
    const s = await this.get(id, db);
    if (s.application_id !== applicationId) throw subscriptionNotFound(id);
    return s;
  }

  /** Accepts a pending subscription in the caller's transaction: dates, key, audit, notice. */
  protected async accepted(
    trx: Executor,
    actor: UserRow,
    s: SubscriptionRow,
    plan: PlanRow,
    /** `processedBy` is null when the plan validates automatically. */
    decision: {
      startingAt: number;
      endingAt: number | null;
      reason: string | null;
      processedBy: string | null;
    },
    after: AfterCommit,
  ): Promise<SubscriptionRow> {
    const now = this.stamp(s);
    await updateSubscription(trx, s.id, {
      status: 'ACCEPTED',
      processed_at: now,
      processed_by: decision.processedBy,
      starting_at: decision.startingAt,
      ending_at: decision.endingAt,
      reason: decision.reason,
      updated_at: now,
    });
    const updated = await this.get(s.id, trx);
    if (plan.security === 'API_KEY') await this.deps.keys.issue(trx, updated, after, now);
    await auditSubscription(
      this.deps.audit,
      trx,
      actor,
      'SUBSCRIPTION_ACCEPTED',
      updated,
      subscriptionChange(s, updated),
    );
    await this.deps.notices.processed(trx, after, updated);
    after.publish({ kind: 'subscription', id: s.id, apiId: s.api_id });
    return updated;
  }

  /** Runs a change of one subscription of an API in a transaction, then announces it. */
  protected async change(
    apiId: string | undefined,
    id: string,
    work: (trx: Executor, s: SubscriptionRow, after: AfterCommit) => Promise<SubscriptionRow>,
    applicationId?: string,
  ): Promise<SubscriptionRow> {
    const after = new AfterCommit();
    const result = await this.db.transaction().execute(async (trx) => {
      const s =
        applicationId !== undefined
          ? await this.ofApplication(applicationId, id, trx)
          : await this.ofApi(apiId!, id, trx);
      const updated = await work(trx, s, after);
      after.publish({ kind: 'subscription', id: s.id, apiId: s.api_id });
      return updated;
    });
    await this.flush(after);
    return result;
  }

  /** Writes the columns, audits the event and answers the subscription as it is now. */
  protected async save(
    trx: Executor,
    actor: UserRow | undefined,
    s: SubscriptionRow,
    changes: SubscriptionRowUpdate,
    event: string,
  ): Promise<SubscriptionRow> {
    await updateSubscription(trx, s.id, { ...changes, updated_at: this.stamp(s) });
    const updated = await this.get(s.id, trx);
    await auditSubscription(this.deps.audit, trx, actor, event, updated, subscriptionChange(s, updated));
    if (
      event === 'SUBSCRIPTION_PAUSED' ||
      event === 'SUBSCRIPTION_RESUMED' ||
      event === 'SUBSCRIPTION_CLOSED'
    )
      await this.deps.notices.changed(trx, updated, event);
    return updated;
  }

  /** Closes a subscription in the caller's transaction: its keys are revoked. */
  protected async closed(trx: Executor, actor: UserRow | undefined, s: SubscriptionRow, after: AfterCommit) {
    const now = this.stamp(s);
    await this.deps.keys.changeAll(trx, s, { revoked: 1, revoked_at: now }, after, now);
    after.publish({ kind: 'subscription', id: s.id, apiId: s.api_id });
    return this.save(trx, actor, s, { status: 'CLOSED', closed_at: now }, 'SUBSCRIPTION_CLOSED');
  }
}
