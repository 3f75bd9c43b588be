import type { Page } from '@portico/model';
import { DEFAULT_SUBSCRIPTION_STATUSES, toPage } from '@portico/model';
import type {
  ApplicationRow,
  Database,
  Executor,
  PlanRow,
  SubscriptionFilter,
  SubscriptionRow,
  SubscriptionRowUpdate,
  UserRow,
} from '@portico/storage';
import {
  findApplicationById,
  findApplicationsByIds,
  findApisByIds,
  findPlanById,
  findPlansByIds,
  findSubscribedApiIdsOfApplication,
  findSubscriberIdsOfApi,
  findSubscriptionById,
  findSubscriptions,
  insertSubscription,
  lockApplication,
  searchSubscriptions,
  updateSubscription,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { AfterCommit } from './after-commit.js';
import type { ApiKeyService } from './api-keys.service.js';
import type { SubscriptionNotices } from './subscription-notices.js';
import { auditSubscription, subscriptionChange } from './subscriptions.audit.js';
import {
  ALREADY_SUBSCRIBED,
  CLIENT_ID_REQUIRED,
  COMMENT_REQUIRED,
  END_BEFORE_NOW,
  END_BEFORE_START,
  KEYLESS_NOT_SUBSCRIBABLE,
  NOT_ACCEPTED,
  NOT_CHANGEABLE,
  NOT_CLOSABLE,
  NOT_CLOSABLE_BY_APPLICATION,
  NOT_PAUSED,
  NOT_PENDING,
  NOT_TRANSFERABLE,
  ONE_OAUTH_SUBSCRIPTION,
  PLAN_NOT_SUBSCRIBABLE,
  START_BEFORE_TODAY,
  TRANSFER_OTHER_SECURITY,
  TRANSFER_PLAN_NOT_PUBLISHED,
  TRANSFER_SAME_PLAN,
  applicationNotFound,
  subscriptionNotFound,
  subscriptionRefused,
  subscriptionRule,
} from './subscriptions.errors.js';
import {
  loadSubscriptionRefs,
  subscriptionMetadata,
  toSubscriptionItem,
  toSubscriptionJson,
} from './subscriptions.mapper.js';

/** Subscriptions that count as the application's one subscription to a plan (and keep keys alive). */
export const LIVE_SUBSCRIPTION_STATUSES = ['PENDING', 'ACCEPTED', 'PAUSED'];
const TOKEN_SECURITIES = new Set(['OAUTH2', 'JWT']);
const DAY_MS = 86_400_000;

export interface SubscriptionServiceDeps {
  db: Kysely<Database>;
  audit: AuditService;
  keys: ApiKeyService;
  notices: SubscriptionNotices;
  now: () => number;
}

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
 * concerned are notified.
 */
export class SubscriptionService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: SubscriptionServiceDeps) {
    this.db = deps.db;
  }

  /** Announces the committed changes and sends the mails. */
  flush(after: AfterCommit): Promise<void> {
    return this.deps.keys.flush(after);
  }

  private stamp(row: { updated_at: number }): number {
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

  /** Accepts a pending subscription in the caller's transaction: dates, key, audit, notice. */
  private async accepted(
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
  private async change(
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
  private async save(
    trx: Executor,
    actor: UserRow | undefined,
    s: SubscriptionRow,
    changes: SubscriptionRowUpdate,
    event: string,
  ): Promise<SubscriptionRow> {
    await updateSubscription(trx, s.id, { ...changes, updated_at: this.stamp(s) });
    const updated = await this.get(s.id, trx);
    await auditSubscription(this.deps.audit, trx, actor, event, updated, subscriptionChange(s, updated));
    return updated;
  }

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

  /** Closes a subscription in the caller's transaction: its keys are revoked. */
  private async closed(trx: Executor, actor: UserRow | undefined, s: SubscriptionRow, after: AfterCommit) {
    const now = this.stamp(s);
    await this.deps.keys.changeAll(trx, s, { revoked: 1, revoked_at: now }, after, now);
    after.publish({ kind: 'subscription', id: s.id, apiId: s.api_id });
    return this.save(trx, actor, s, { status: 'CLOSED', closed_at: now }, 'SUBSCRIPTION_CLOSED');
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
