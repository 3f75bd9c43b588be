import type { Executor } from '@portico/storage';
import { findNotificationSettingsOf, findUsersByIds, insertNotificationDelivery } from '@portico/storage';
import { newId } from '../../http/ids.js';
import type { NotificationService } from '../notifications/notifications.service.js';
import type { HookScope } from './notification-hooks.js';
import { HOOKS, PORTAL_REFERENCE_ID, notifierType } from './notification-hooks.js';

/** What happened, as told to people: a title, a sentence, and the facts for webhooks. */
export interface HookEvent {
  hook: string;
  title: string;
  message: string;
  /** Ids and names (api, application, plan, subscription...) sent in the webhook payload. */
  params: Record<string, unknown>;
}

/** The scopes an event concerns: its API, its application, the platform. */
export interface HookTargets {
  api?: string;
  application?: string;
  portal?: boolean;
}

/**
 * Routes an event through the notification settings of the scopes it concerns, in the caller's
 * transaction: a PORTAL setting writes the in-app notification of its user at once; an EMAIL or
 * WEBHOOK setting writes a delivery to the outbox, sent by the scheduler's job (so the request never
 * waits on a mail server or webhook, and nothing is lost on restart).
 */
export class NotificationDispatcher {
  constructor(
    private readonly notifications: NotificationService,
    private readonly now: () => number,
  ) {}

  /** `alreadyTold`: users the caller has notified in the app of this event already (not told twice). */
  async trigger(
    db: Executor,
    targets: HookTargets,
    event: HookEvent,
    alreadyTold: Iterable<string> = [],
  ): Promise<void> {
    const scopes: { type: HookScope; id: string }[] = [];
    if (targets.api) scopes.push({ type: 'API', id: targets.api });
    if (targets.application) scopes.push({ type: 'APPLICATION', id: targets.application });
    if (targets.portal) scopes.push({ type: 'PORTAL', id: PORTAL_REFERENCE_ID });
    const portalUsers = new Set<string>();
    const now = this.now();
    for (const scope of scopes) {
      if (!HOOKS[scope.type].some((h) => h.id === event.hook)) continue;
      for (const setting of await findNotificationSettingsOf(db, scope.type, scope.id)) {
        if (!(JSON.parse(setting.hooks) as string[]).includes(event.hook)) continue;
        if (setting.config_type === 'PORTAL') {
          if (setting.user_id) portalUsers.add(setting.user_id);
          continue;
        }
        const type = notifierType(setting.notifier);
        if (!type || !setting.config) continue;
        const payload = {
          event: event.hook,
          scope: scope.type,
          title: event.title,
          message: event.message,
          ...event.params,
        };
        await insertNotificationDelivery(db, {
          id: newId(),
          setting_id: setting.id,
          notifier: type,
          hook: event.hook,
          target: setting.config,
          use_system_proxy: setting.use_system_proxy ? 1 : 0,
          payload: JSON.stringify(payload),
          status: 'PENDING',
          attempts: 0,
          next_attempt_at: now,
          last_error: null,
          created_at: now,
          updated_at: now,
        });
      }
    }
    for (const id of alreadyTold) portalUsers.delete(id);
    if (portalUsers.size === 0) return;
    const active = (await findUsersByIds(db, [...portalUsers])).filter((u) => u.status === 'ACTIVE');
    await this.notifications.notify(
      db,
      active.map((u) => u.id),
      event.title,
      event.message,
    );
  }
}
