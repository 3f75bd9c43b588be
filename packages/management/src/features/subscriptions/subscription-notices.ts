import { PRIMARY_OWNER } from '@portico/model';
import type { ApiKeyRow, ApplicationRow, Executor, SubscriptionRow } from '@portico/storage';
import {
  findApiById,
  findApplicationById,
  findMembershipsOfReference,
  findPlanById,
  findUsersByIds,
} from '@portico/storage';
import type { NotificationService } from '../notifications/notifications.service.js';
import type { NotificationDispatcher } from '../notification-settings/notification-dispatch.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { AfterCommit } from './after-commit.js';

/** A key as people are told about it: its last characters only. */
export const maskKey = (key: string): string => `…${key.slice(-6)}`;

const CHANGES = {
  SUBSCRIPTION_PAUSED: ['Subscription paused', 'paused'],
  SUBSCRIPTION_RESUMED: ['Subscription resumed', 'resumed'],
  SUBSCRIPTION_CLOSED: ['Subscription closed', 'closed'],
  SUBSCRIPTION_TRANSFERRED: ['Subscription transferred', 'transferred to another plan'],
} as const;

const date = (instant: number) => new Date(instant).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/**
 * Tells people about subscriptions and keys (issue 5, item 7): a notification in `user/notifications`
 * written in the transaction of the change, and a mail, sent once it is committed, to those who have an
 * email address.
 */
export class SubscriptionNotices {
  constructor(
    private readonly notifications: NotificationService,
    private readonly permissions: PermissionService,
    private readonly hooks?: NotificationDispatcher,
  ) {}

  /** The event, also through the notification settings of the subscription's API and application. */
  private async hook(
    db: Executor,
    s: SubscriptionRow,
    event: { hook: string; title: string; message: string },
    told: string[],
  ) {
    if (!this.hooks) return;
    const n = await this.names(db, s);
    await this.hooks.trigger(
      db,
      { api: s.api_id, application: s.application_id },
      {
        ...event,
        params: {
          api: { id: s.api_id, name: n.api },
          application: { id: s.application_id, name: n.application },
          plan: { id: s.plan_id, name: n.plan },
          subscription: { id: s.id, status: s.status },
        },
      },
      told,
    );
  }

  private async tell(
    db: Executor,
    after: AfterCommit,
    userIds: Iterable<string>,
    title: string,
    message: string,
  ): Promise<string[]> {
    const users = await findUsersByIds(db, [...new Set(userIds)]);
    const active = users.filter((u) => u.status === 'ACTIVE');
    await this.notifications.notify(
      db,
      active.map((u) => u.id),
      title,
      message,
    );
    for (const user of active)
      if (user.email) after.mail({ to: [user.email], subject: title, text: `${message}\n` });
    return active.map((u) => u.id);
  }

  /** The primary owner of the application and the user who subscribed. */
  private async applicationContacts(db: Executor, subscription: SubscriptionRow): Promise<string[]> {
    const owners = (await findMembershipsOfReference(db, 'APPLICATION', subscription.application_id))
      .filter(
        (m) => m.member_type === 'USER' && m.role_scope === 'APPLICATION' && m.role_name === PRIMARY_OWNER,
      )
      .map((m) => m.member_id);
    return subscription.subscribed_by ? [...owners, subscription.subscribed_by] : owners;
  }

  /** Names of the API, plan and application of a subscription, for the messages. */
  private async names(db: Executor, s: SubscriptionRow) {
    const [api, plan, application] = await Promise.all([
      findApiById(db, s.api_id),
      findPlanById(db, s.plan_id),
      findApplicationById(db, s.application_id),
    ]);
    return {
      api: api ? `${api.name} (${api.version})` : s.api_id,
      plan: plan?.name ?? s.plan_id,
      application: (application as ApplicationRow | undefined)?.name ?? s.application_id,
    };
  }

  /** A new subscription waits for validation: the users holding api-subscription-u on the API. */
  async toValidate(db: Executor, after: AfterCommit, s: SubscriptionRow): Promise<void> {
    const n = await this.names(db, s);
    const validators = await this.permissions.holders(db, 'API', s.api_id, 'SUBSCRIPTION', 'U');
    const request = s.request ? ` Message: "${s.request}"` : '';
    const message = `The application ${n.application} asks to subscribe to the plan ${n.plan} of the API ${n.api}.${request}`;
    const told = await this.tell(db, after, validators, 'New subscription to validate', message);
    await this.hook(db, s, { hook: 'SUBSCRIPTION_NEW', title: 'New subscription', message }, told);
  }

  /** The subscription was accepted or rejected: its application's owner and subscriber. */
  async processed(db: Executor, after: AfterCommit, s: SubscriptionRow): Promise<void> {
    const n = await this.names(db, s);
    const accepted = s.status === 'ACCEPTED';
    const reason = s.reason ? ` Reason: "${s.reason}"` : '';
    const title = accepted ? 'Subscription accepted' : 'Subscription rejected';
    const message = `The subscription of the application ${n.application} to the plan ${n.plan} of the API ${n.api} has been ${accepted ? 'accepted' : 'rejected'}.${reason}`;
    const told = await this.tell(db, after, await this.applicationContacts(db, s), title, message);
    await this.hook(
      db,
      s,
      { hook: accepted ? 'SUBSCRIPTION_ACCEPTED' : 'SUBSCRIPTION_REJECTED', title, message },
      told,
    );
  }

  /**
   * Paused, resumed, closed or transferred: told through the notification settings of the API and
   * application only (as Gravitee, no notice of its own).
   */
  async changed(db: Executor, s: SubscriptionRow, hook: keyof typeof CHANGES): Promise<void> {
    const n = await this.names(db, s);
    const [title, verb] = CHANGES[hook];
    const message = `The subscription of the application ${n.application} to the plan ${n.plan} of the API ${n.api} has been ${verb}.`;
    await this.hook(db, s, { hook, title, message }, []);
  }

  async keyRenewed(db: Executor, after: AfterCommit, s: SubscriptionRow, previousUntil: number | null) {
    const n = await this.names(db, s);
    const grace = previousUntil === null ? '' : ` The previous key works until ${date(previousUntil)}.`;
    const message = `A new API key has been generated for the subscription of the application ${n.application} to the API ${n.api} (plan ${n.plan}).${grace}`;
    const told = await this.tell(
      db,
      after,
      await this.applicationContacts(db, s),
      'API key renewed',
      message,
    );
    await this.hook(db, s, { hook: 'APIKEY_RENEWED', title: 'API key renewed', message }, told);
  }

  async keyRevoked(db: Executor, after: AfterCommit, s: SubscriptionRow, key: ApiKeyRow) {
    const n = await this.names(db, s);
    const message = `The API key ${maskKey(key.key)} of the application ${n.application} for the API ${n.api} (plan ${n.plan}) has been revoked.`;
    const told = await this.tell(
      db,
      after,
      await this.applicationContacts(db, s),
      'API key revoked',
      message,
    );
    await this.hook(db, s, { hook: 'APIKEY_REVOKED', title: 'API key revoked', message }, told);
  }

  /** An expiration date set on a key, or the scan's notice before it: the APIKEY_EXPIRED hook too. */
  async keyExpiring(db: Executor, after: AfterCommit, s: SubscriptionRow, key: ApiKeyRow, at: number) {
    const n = await this.names(db, s);
    const message = `The API key ${maskKey(key.key)} of the application ${n.application} for the API ${n.api} (plan ${n.plan}) expires on ${date(at)}.`;
    const told = await this.tell(
      db,
      after,
      await this.applicationContacts(db, s),
      'API key expiring',
      message,
    );
    await this.hook(db, s, { hook: 'APIKEY_EXPIRED', title: 'API key expiring', message }, told);
  }
}
