import type { Page } from '@portico/model';
import { DEFAULT_SUBSCRIPTION_STATUSES, toPage } from '@portico/model';
import type { ApplicationRow, SubscriptionFilter, SubscriptionRow, UserRow } from '@portico/storage';
import {
  findApplicationById,
  findApplicationsByIds,
  findApisByIds,
  findPlanById,
  findPlansByIds,
  findSubscribedApiIdsOfApplication,
  findSubscriberIdsOfApi,
  findSubscriptions,
  insertSubscription,
  lockApplication,
  searchSubscriptions,
} from '@portico/storage';
import { newId } from '../../http/ids.js';
import { AfterCommit } from './after-commit.js';
import { LIVE_SUBSCRIPTION_STATUSES } from './subscription-changes.js';
import { SubscriptionLifecycle } from './subscription-lifecycle.service.js';
import { auditSubscription, subscriptionChange } from './subscriptions.audit.js';
import {
  ALREADY_SUBSCRIBED,
  CLIENT_ID_REQUIRED,
  COMMENT_REQUIRED,
  KEYLESS_NOT_SUBSCRIBABLE,
  ONE_OAUTH_SUBSCRIPTION,
  PLAN_NOT_SUBSCRIBABLE,
  applicationNotFound,
  subscriptionRule,
} from './subscriptions.errors.js';
import {
  loadSubscriptionRefs,
  subscriptionMetadata,
  toSubscriptionItem,
  toSubscriptionJson,
} from './subscriptions.mapper.js';

export type { SubscriptionServiceDeps } from './subscription-changes.js';
export { LIVE_SUBSCRIPTION_STATUSES } from './subscription-changes.js';

const TOKEN_SECURITIES = new Set(['OAUTH2', 'JWT']);

export interface NewSubscription {
  planId: string;
  applicationId: string;
  /** Set when the call names the API (`POST apis/{id}/subscriptions`): the plan must be one of its plans. */
  apiId?: string | undefined;
  request?: string | undefined;
  /**
   * The API's publisher subscribes the application (`POST apis/{id}/subscriptions`): accepted at once, by
   * them, whatever the plan's validation (as Gravitee 1.x).
   */
  acceptAtOnce?: boolean;
}

export interface SubscriptionListQuery extends SubscriptionFilter {
  page: number;
  size: number;
}

/**
 * Subscriptions of applications to plans (console-apis.md section 4, portal-and-platform.md section 5):
 * pending → accepted or rejected; accepted ⇄ paused; accepted or paused → closed, transferred to another
 * plan, or given another end date. Every change runs in one transaction with its audit entries (API and
 * application), moves `updated_at`, and is announced to the gateways once committed; the people
 * concerned are notified. This class holds the queries and the subscribe rules; the changes after that are
 * in `SubscriptionLifecycle`.
 */
export class SubscriptionService extends SubscriptionLifecycle {
  /** One page of subscriptions, newest first; without statuses, the accepted, pending and paused ones. */
  async search(query: SubscriptionListQuery): Promise<Page<ReturnType<typeof toSubscriptionItem>>> {
    const { page, size, ...filter } = query;
    const statuses = filter.statuses?.length ? filter.statuses : DEFAULT_SUBSCRIPTION_STATUSES;
    const { rows, total } = await searchSubscriptions(
      this.db,
      {
        ...filter,
        applicationIds: filter.applicationIds?.length ? filter.applicationIds : undefined,
        planIds: filter.planIds?.length ? filter.planIds : undefined,
        apiIds: filter.apiIds?.length ? filter.apiIds : undefined,
        statuses,
      },
      { offset: (page - 1) * size, limit: size },
    );
    const refs = await loadSubscriptionRefs(this.db, rows);
    return toPage(rows.map(toSubscriptionItem), page, size, total, subscriptionMetadata(refs));
  }

  /** One subscription with its API, plan, application and people. */
  async detail(s: SubscriptionRow) {
    return toSubscriptionJson(s, await loadSubscriptionRefs(this.db, [s]));
  }

  /** `GET apis/{id}/subscribers`: the applications with an accepted, pending or paused subscription. */
  async subscribers(apiId: string): Promise<ApplicationRow[]> {
    const ids = await findSubscriberIdsOfApi(this.db, apiId, LIVE_SUBSCRIPTION_STATUSES);
    return (await findApplicationsByIds(this.db, ids)).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** `GET applications/{id}/subscribed`: the APIs the application has a live subscription to. */
  async subscribedApis(applicationId: string) {
    const ids = await findSubscribedApiIdsOfApplication(this.db, applicationId, LIVE_SUBSCRIPTION_STATUSES);
    return (await findApisByIds(this.db, ids))
      .map((a) => ({ id: a.id, name: a.name, version: a.version }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Subscribes an application to a plan (`POST apis/{id}/subscriptions?plan=&application=`,
   * `POST applications/{id}/subscriptions?plan=`). The plan must be published and not key-less; the
   * application may hold one pending, accepted or paused subscription per plan and, for OAuth2 and JWT
   * plans, needs a client id and may hold only one such subscription per API. A plan with automatic
   * validation accepts at once (and issues the key), as does a subscription made by the API's publisher.
   */
  async subscribe(actor: UserRow, input: NewSubscription): Promise<SubscriptionRow> {
    const after = new AfterCommit();
    const created = await this.db.transaction().execute(async (trx) => {
      await lockApplication(trx, input.applicationId);
      const application = await findApplicationById(trx, input.applicationId);
      if (!application || application.status !== 'ACTIVE') throw applicationNotFound(input.applicationId);
      const plan = await findPlanById(trx, input.planId);
      if (!plan || (input.apiId !== undefined && plan.api_id !== input.apiId))
        throw subscriptionRule('plan', `The plan [${input.planId}] can not be found.`);
      if (plan.security === 'KEY_LESS') throw subscriptionRule('plan', KEYLESS_NOT_SUBSCRIBABLE);
      if (plan.status !== 'PUBLISHED') throw subscriptionRule('plan', PLAN_NOT_SUBSCRIBABLE);
      const request = input.request?.trim() || null;
      if (plan.comment_required === 1 && !request)
        throw subscriptionRule('request', COMMENT_REQUIRED(plan.comment_message));
      const token = TOKEN_SECURITIES.has(plan.security);
      if (token && !application.client_id) throw subscriptionRule('application', CLIENT_ID_REQUIRED);
      const live = await findSubscriptions(trx, {
        applicationIds: [application.id],
        apiIds: [plan.api_id],
        statuses: LIVE_SUBSCRIPTION_STATUSES,
      });
      if (live.some((s) => s.plan_id === plan.id)) throw subscriptionRule('plan', ALREADY_SUBSCRIBED);
      if (token) {
        const others = await findPlansByIds(trx, [...new Set(live.map((s) => s.plan_id))]);
        if (others.some((p) => TOKEN_SECURITIES.has(p.security)))
          throw subscriptionRule('plan', ONE_OAUTH_SUBSCRIPTION);
      }
      const now = this.deps.now();
      const id = newId();
      await insertSubscription(trx, {
        id,
        api_id: plan.api_id,
        plan_id: plan.id,
        application_id: application.id,
        status: 'PENDING',
        request,
        reason: null,
        client_id: application.client_id,
        subscribed_by: actor.id,
        processed_by: null,
        created_at: now,
        updated_at: now,
        processed_at: null,
        starting_at: null,
        ending_at: null,
        paused_at: null,
        closed_at: null,
      });
      let s = await this.get(id, trx);
      await auditSubscription(
        this.deps.audit,
        trx,
        actor,
        'SUBSCRIPTION_CREATED',
        s,
        subscriptionChange(undefined, s),
      );
      if (plan.validation === 'AUTO' || input.acceptAtOnce) {
        const processedBy = plan.validation === 'AUTO' ? null : actor.id;
        s = await this.accepted(
          trx,
          actor,
          s,
          plan,
          { startingAt: now, endingAt: null, reason: null, processedBy },
          after,
        );
      } else {
        await this.deps.notices.toValidate(trx, after, s);
      }
      after.publish({ kind: 'subscription', id, apiId: plan.api_id });
      return s;
    });
    await this.flush(after);
    return created;
  }
}
