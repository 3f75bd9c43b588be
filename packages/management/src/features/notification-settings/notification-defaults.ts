import type { Executor } from '@portico/storage';
import { insertNotificationSetting } from '@portico/storage';
import { newId } from '../../http/ids.js';
import { HOOKS } from './notification-hooks.js';

/** The in-app (PORTAL) setting's name, as Gravitee shows it. */
export const PORTAL_SETTING_NAME = 'Portal Notification';

/** A user's PORTAL setting row on a scope. */
export const portalSetting = (
  scope: { type: 'API' | 'APPLICATION' | 'PORTAL'; id: string },
  userId: string,
  hooks: string[],
  now: number,
) => ({
  id: newId(),
  name: PORTAL_SETTING_NAME,
  config_type: 'PORTAL',
  reference_type: scope.type,
  reference_id: scope.id,
  user_id: userId,
  notifier: null,
  config: null,
  use_system_proxy: 0,
  hooks: JSON.stringify(hooks),
  created_at: now,
  updated_at: now,
});

/**
 * The default notification setting of a new API or application, in its creating transaction: its
 * primary owner is told in the app of every hook of the scope (they may change it on the
 * notifications screen).
 */
export async function insertDefaultNotificationSetting(
  db: Executor,
  scope: { type: 'API' | 'APPLICATION'; id: string },
  primaryOwner: string,
  now: number,
): Promise<void> {
  const hooks = HOOKS[scope.type].map((h) => h.id);
  await insertNotificationSetting(db, portalSetting(scope, primaryOwner, hooks, now));
}
