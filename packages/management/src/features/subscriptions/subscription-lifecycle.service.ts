import type { ApplicationRow, Executor, PlanRow, SubscriptionRow, UserRow } from '@portico/storage';
import { findPlanById, findSubscriptions, updateSubscription } from '@portico/storage';
import type { AfterCommit } from './after-commit.js';
import { LIVE_SUBSCRIPTION_STATUSES, SubscriptionChanges } from './subscription-changes.js';
import { auditSubscription, subscriptionChange } from './subscriptions.audit.js';
import {
  ALREADY_SUBSCRIBED,
  END_BEFORE_NOW,
  END_BEFORE_START,
  NOT_ACCEPTED,
  NOT_CHANGEABLE,
  NOT_CLOSABLE,
  NOT_CLOSABLE_BY_APPLICATION,
  NOT_PAUSED,
  NOT_PENDING,
  NOT_TRANSFERABLE,
  START_BEFORE_TODAY,
  TRANSFER_OTHER_SECURITY,
  TRANSFER_PLAN_NOT_PUBLISHED,
  TRANSFER_SAME_PLAN,
  subscriptionRefused,
  subscriptionRule,
} from './subscriptions.errors.js';

const DAY_MS = 86_400_000;

/**
 * The life of a subscription once made (console-apis.md section 4): pending → accepted or rejected;
 * accepted ⇄ paused; accepted or paused → closed, transferred to another plan, or given another end date;
 * and what follows when its plan is closed, its application archived or its client id changed.
 */
export class SubscriptionLifecycle extends SubscriptionChanges {
  /**
   * `POST .../_process` accepted: the start may not be before today (default now), the end not before
   * the start; an API-key plan issues the key.
   */
  accept(
    actor: UserRow,
    apiId: string,
    id: string,
    input: {
      starting_at?: number | null | undefined;
      ending_at?: number | null | undefined;
      reason?: string | null | undefined;
    },
  ): Promise<SubscriptionRow> {
    return this.change(apiId, id, async (trx, s, after) => {
      if (s.status !== 'PENDING') throw subscriptionRefused(NOT_PENDING);
      const now = this.deps.now();
      const startOfToday = Math.floor(now / DAY_MS) * DAY_MS;
      const startingAt = input.starting_at ?? now;
      if (startingAt < startOfToday) throw subscriptionRule('starting_at', START_BEFORE_TODAY);
      const endingAt = input.ending_at ?? null;
      if (endingAt !== null && endingAt < startingAt) throw subscriptionRule('ending_at', END_BEFORE_START);
      const plan = await findPlanById(trx, s.plan_id);
      if (!plan) throw subscriptionRule('plan', `The plan [${s.plan_id}] can not be found.`);
      return this.accepted(
        trx,
        actor,
        s,
        plan,
        { startingAt, endingAt, reason: input.reason?.trim() || null, processedBy: actor.id },
        after,
      );
    });
  }

  /** `POST .../_process` rejected: the subscription ends here, with the reason given. */
  reject(actor: UserRow, apiId: string, id: string, reason?: string | null): Promise<SubscriptionRow> {
    return this.change(apiId, id, async (trx, s, after) => {
      if (s.status !== 'PENDING') throw subscriptionRefused(NOT_PENDING);
      const now = this.stamp(s);
      const updated = await this.save(
        trx,
        actor,
        s,
        {
          status: 'REJECTED',
          processed_at: now,
          processed_by: actor.id,
          closed_at: now,
          reason: reason?.trim() || null,
        },
        'SUBSCRIPTION_REJECTED',
      );
      await this.deps.notices.processed(trx, after, updated);
      return updated;
    });
  }

  /** `POST .../status?status=PAUSED`: accepted → paused; its keys are paused too. */
  pause(actor: UserRow, apiId: string, id: string): Promise<SubscriptionRow> {
    return this.change(apiId, id, async (trx, s, after) => {
      if (s.status !== 'ACCEPTED') throw subscriptionRefused(NOT_ACCEPTED);
      const now = this.stamp(s);
      await this.deps.keys.changeAll(trx, s, { paused: 1 }, after, now);
      return this.save(trx, actor, s, { status: 'PAUSED', paused_at: now }, 'SUBSCRIPTION_PAUSED');
    });
  }

  /** `POST .../status?status=RESUMED`: paused → accepted; its keys work again. */
  resume(actor: UserRow, apiId: string, id: string): Promise<SubscriptionRow> {
    return this.change(apiId, id, async (trx, s, after) => {
      if (s.status !== 'PAUSED') throw subscriptionRefused(NOT_PAUSED);
      await this.deps.keys.changeAll(trx, s, { paused: 0 }, after, this.stamp(s));
      return this.save(trx, actor, s, { status: 'ACCEPTED', paused_at: null }, 'SUBSCRIPTION_RESUMED');
    });
  }

  /** `POST .../status?status=CLOSED` (API side): accepted or paused → closed, keys revoked. */
  close(actor: UserRow, apiId: string, id: string): Promise<SubscriptionRow> {
    return this.change(apiId, id, async (trx, s, after) => {
      if (s.status !== 'ACCEPTED' && s.status !== 'PAUSED') throw subscriptionRefused(NOT_CLOSABLE);
      return this.closed(trx, actor, s, after);
    });
  }

  /** `DELETE applications/{id}/subscriptions/{subId}`: pending, accepted or paused → closed. */
  closeByApplication(actor: UserRow, applicationId: string, id: string): Promise<SubscriptionRow> {
    return this.change(
      undefined,
      id,
      async (trx, s, after) => {
        if (!LIVE_SUBSCRIPTION_STATUSES.includes(s.status))
          throw subscriptionRefused(NOT_CLOSABLE_BY_APPLICATION);
        return this.closed(trx, actor, s, after);
      },
      applicationId,
    );
  }

  /**
   * `POST .../_transfer`: an accepted or paused subscription moves, with its keys, to another published
   * plan of the same API and security type (where the application has no subscription yet).
   */
  transfer(actor: UserRow, apiId: string, id: string, planId: string): Promise<SubscriptionRow> {
    return this.change(apiId, id, async (trx, s, after) => {
      if (s.status !== 'ACCEPTED' && s.status !== 'PAUSED') throw subscriptionRefused(NOT_TRANSFERABLE);
      if (planId === s.plan_id) throw subscriptionRule('plan', TRANSFER_SAME_PLAN);
      const [current, target] = await Promise.all([findPlanById(trx, s.plan_id), findPlanById(trx, planId)]);
      if (!target || target.api_id !== s.api_id)
        throw subscriptionRule('plan', `The plan [${planId}] can not be found.`);
      if (target.status !== 'PUBLISHED') throw subscriptionRule('plan', TRANSFER_PLAN_NOT_PUBLISHED);
      if (target.security !== current?.security) throw subscriptionRule('plan', TRANSFER_OTHER_SECURITY);
      const live = await findSubscriptions(trx, {
        applicationIds: [s.application_id],
        planIds: [planId],
        statuses: LIVE_SUBSCRIPTION_STATUSES,
      });
      if (live.length > 0) throw subscriptionRule('plan', ALREADY_SUBSCRIBED);
      const now = this.stamp(s);
      await this.deps.keys.changeAll(trx, s, { plan_id: planId }, after, now, 'all');
      await updateSubscription(trx, s.id, { plan_id: planId, updated_at: now });
      const updated = await this.get(s.id, trx);
      await auditSubscription(this.deps.audit, trx, actor, 'SUBSCRIPTION_TRANSFERRED', updated, {
        ...subscriptionChange(s, updated),
        properties: { FROM_PLAN: s.plan_id, PLAN: planId },
      });
      await this.deps.notices.changed(trx, updated, 'SUBSCRIPTION_TRANSFERRED');
      return updated;
    });
  }

  /**
   * `PUT apis/{id}/subscriptions/{subId}`: the dates of an accepted or paused subscription. The end may
   * not be earlier than now nor before the start; keys expiring later expire with the subscription.
   */
  changeDates(
    actor: UserRow,
    apiId: string,
    id: string,
    input: { starting_at?: number | null | undefined; ending_at?: number | null | undefined },
  ): Promise<SubscriptionRow> {
    return this.change(apiId, id, async (trx, s, after) => {
      if (s.status !== 'ACCEPTED' && s.status !== 'PAUSED') throw subscriptionRefused(NOT_CHANGEABLE);
      const now = this.deps.now();
      const startingAt = input.starting_at === undefined ? s.starting_at : input.starting_at;
      const endingAt = input.ending_at === undefined ? s.ending_at : input.ending_at;
      if (endingAt !== null && input.ending_at !== undefined && endingAt < now)
        throw subscriptionRule('ending_at', END_BEFORE_NOW);
      if (endingAt !== null && startingAt !== null && endingAt < startingAt)
        throw subscriptionRule('ending_at', END_BEFORE_START);
      if (endingAt !== null) await this.deps.keys.capExpiry(trx, s, endingAt, after, now);
      return this.save(
        trx,
        actor,
        s,
        { starting_at: startingAt, ending_at: endingAt },
        'SUBSCRIPTION_UPDATED',
      );
    });
  }

  /**
   * A plan is closed (in its transaction): its accepted and paused subscriptions are closed and their
   * keys revoked; its pending ones are rejected.
   */
  async closeAllOfPlan(trx: Executor, actor: UserRow, plan: PlanRow, after: AfterCommit): Promise<void> {
    for (const s of await findSubscriptions(trx, {
      planIds: [plan.id],
      statuses: LIVE_SUBSCRIPTION_STATUSES,
    })) {
      if (s.status === 'PENDING') {
        const now = this.stamp(s);
        const updated = await this.save(
          trx,
          actor,
          s,
          {
            status: 'REJECTED',
            processed_at: now,
            processed_by: actor.id,
            closed_at: now,
            reason: 'The plan has been closed.',
          },
          'SUBSCRIPTION_REJECTED',
        );
        await this.deps.notices.processed(trx, after, updated);
        after.publish({ kind: 'subscription', id: s.id, apiId: s.api_id });
      } else {
        await this.closed(trx, actor, s, after);
      }
    }
  }

  /** An application is archived (in its transaction): its live subscriptions close, keys revoked. */
  async closeAllOfApplication(
    trx: Executor,
    actor: UserRow,
    applicationId: string,
    after: AfterCommit,
  ): Promise<void> {
    for (const s of await findSubscriptions(trx, {
      applicationIds: [applicationId],
      statuses: LIVE_SUBSCRIPTION_STATUSES,
    }))
      await this.closed(trx, actor, s, after);
  }

  /**
   * The client id of an application changed (in its transaction): its live subscriptions carry the new
   * one, so the gateways find them by the new client id.
   */
  async followClientId(trx: Executor, application: ApplicationRow, after: AfterCommit): Promise<void> {
    for (const s of await findSubscriptions(trx, {
      applicationIds: [application.id],
      statuses: LIVE_SUBSCRIPTION_STATUSES,
    })) {
      if (s.client_id === application.client_id) continue;
      await updateSubscription(trx, s.id, { client_id: application.client_id, updated_at: this.stamp(s) });
      after.publish({ kind: 'subscription', id: s.id, apiId: s.api_id });
    }
  }
}
