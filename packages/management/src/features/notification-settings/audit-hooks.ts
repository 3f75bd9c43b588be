import type { Executor } from '@portico/storage';
import { findApiById, findGroupById, findUserById } from '@portico/storage';
import type { AuditEntry, AuditObserver } from '../audit/audit.service.js';
import type { NotificationDispatcher } from './notification-dispatch.js';

const lifecycleOf = (value: unknown) =>
  value && typeof value === 'object' ? (value as { lifecycle_state?: unknown }).lifecycle_state : undefined;

/** The API hook an audited change is, if any: started, stopped, deprecated. */
function apiHookOf(entry: AuditEntry): { hook: string; title: string; verb: string } | undefined {
  if (entry.referenceType !== 'API') return undefined;
  if (entry.event === 'API_STARTED') return { hook: 'API_STARTED', title: 'API started', verb: 'started' };
  if (entry.event === 'API_STOPPED') return { hook: 'API_STOPPED', title: 'API stopped', verb: 'stopped' };
  if (lifecycleOf(entry.after) === 'DEPRECATED' && lifecycleOf(entry.before) !== 'DEPRECATED')
    return { hook: 'API_DEPRECATED', title: 'API deprecated', verb: 'deprecated' };
  return undefined;
}

/** The platform (PORTAL) hooks of audited user events. */
const USER_HOOKS: Record<string, { title: string; verb: string }> = {
  USER_CREATED: { title: 'User created', verb: 'has been created' },
  USER_REGISTERED: { title: 'User registered', verb: 'has registered' },
  PASSWORD_RESET: { title: 'Password reset', verb: 'asked for a password reset' },
};

const FIRST_LOGIN = { title: 'First login', verb: 'signed in for the first time' };

async function userHook(dispatcher: NotificationDispatcher, db: Executor, entry: AuditEntry) {
  const userId = entry.properties?.USER;
  if (entry.referenceType !== 'ENVIRONMENT' || !userId) return;
  const events: { hook: string; title: string; verb: string }[] = [];
  const known = USER_HOOKS[entry.event];
  if (known) events.push({ hook: entry.event, ...known });
  const connecting = entry.event === 'USER_CONNECTED' || entry.event === 'USER_CREATED';
  const group = entry.event === 'MEMBERSHIP_CREATED' ? entry.properties?.GROUP : undefined;
  if (events.length === 0 && !connecting && !group) return;
  const user = await findUserById(db, userId);
  // A first sign-in: the one that made the count 1 (a social sign-in creates its user already counted).
  if (connecting && user?.login_count === 1) events.push({ hook: 'USER_FIRST_LOGIN', ...FIRST_LOGIN });
  const name = user ? [user.firstname, user.lastname].filter(Boolean).join(' ') || user.source_id : userId;
  const params: Record<string, unknown> = { user: { id: userId, name, email: user?.email ?? null } };
  for (const event of events) {
    await dispatcher.trigger(
      db,
      { portal: true },
      { hook: event.hook, title: event.title, message: `The user ${name} ${event.verb}.`, params },
    );
  }
  if (group) {
    const row = await findGroupById(db, group);
    const groupName = row?.name ?? group;
    await dispatcher.trigger(
      db,
      { portal: true },
      {
        hook: 'GROUP_INVITATION',
        title: 'Group invitation',
        message: `The user ${name} has been added to the group ${groupName}.`,
        params: { ...params, group: { id: group, name: groupName } },
      },
    );
  }
}

/**
 * Routes audited changes to the notification settings, in the change's transaction, so every path
 * that makes the change is covered: an API started, stopped or deprecated (API hooks), a user
 * created, registered, resetting their password, signing in for the first time or added to a group
 * (platform hooks).
 */
export function auditHooks(dispatcher: NotificationDispatcher): AuditObserver {
  return async (db: Executor, entry: AuditEntry) => {
    await userHook(dispatcher, db, entry);
    const found = apiHookOf(entry);
    if (!found) return;
    const api = await findApiById(db, entry.referenceId);
    const name = api ? `${api.name} (${api.version})` : entry.referenceId;
    await dispatcher.trigger(
      db,
      { api: entry.referenceId },
      {
        hook: found.hook,
        title: found.title,
        message: `The API ${name} has been ${found.verb}.`,
        params: { api: { id: entry.referenceId, name } },
      },
    );
  };
}
