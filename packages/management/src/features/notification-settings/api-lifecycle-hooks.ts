import type { Executor } from '@portico/storage';
import { findApiById } from '@portico/storage';
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

/**
 * Tells the notification settings of an API that it was started, stopped or deprecated, from the
 * audit entry of the change (in its transaction), so every path that changes it is covered.
 */
export function apiLifecycleHooks(dispatcher: NotificationDispatcher): AuditObserver {
  return async (db: Executor, entry: AuditEntry) => {
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
