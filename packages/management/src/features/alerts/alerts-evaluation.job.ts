import type { AlertRow, Database, Executor } from '@portico/storage';
import {
  countRequests,
  findAlertsDue,
  findApiById,
  findApplicationById,
  healthStatsByWindow,
  insertAlertEvent,
  recordAlertEvaluation,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { HookTargets, NotificationDispatcher } from '../notification-settings/notification-dispatch.js';
import type { ScheduledJob } from '../scheduler/scheduler.js';
import { ALERT_EVALUATION_EVERY_MS, ALERT_WINDOW_MS, alertMetric } from './alert-metrics.js';

const BATCH = 100;

export interface AlertsJobDeps {
  db: Kysely<Database>;
  /** The request rows are brought up to date before the alerts measure them. */
  requests: { catchUp(): Promise<void> };
  hooks: NotificationDispatcher;
  now(): number;
}

/** The measured value of an alert over the window ending `now`: a count, or a percentage of the total. */
export async function measureAlert(db: Executor, alert: AlertRow, now: number): Promise<number> {
  const from = now - ALERT_WINDOW_MS;
  let matching: number;
  let total: number;
  if (alert.type === 'HEALTH_CHECK') {
    const stats = await healthStatsByWindow(db, {
      apiId: alert.reference_id,
      field: 'endpoint',
      now,
      windows: { window: ALERT_WINDOW_MS },
    });
    total = 0;
    let ok = 0;
    for (const byWindow of stats.values()) {
      total += byWindow.window?.total ?? 0;
      ok += byWindow.window?.ok ?? 0;
    }
    matching = total - ok;
  } else {
    const scope = {
      from,
      to: now,
      ...(alert.reference_type === 'API' ? { apiId: alert.reference_id } : {}),
      ...(alert.reference_type === 'APPLICATION' ? { applicationId: alert.reference_id } : {}),
    };
    const plan = alert.plan ? `plan:"${alert.plan}"` : undefined;
    const filter = alertMetric(alert.metric_type)?.filter;
    total = await countRequests(db, { ...scope, ...(plan ? { filter: plan } : {}) });
    matching =
      total === 0 || !filter
        ? 0
        : await countRequests(db, { ...scope, filter: plan ? `(${filter}) AND ${plan}` : filter });
  }
  if (alert.threshold_type === 'PERCENT_RATE') return total === 0 ? 0 : (matching * 100) / total;
  return matching;
}

/** Fires at the threshold (a value of zero never fires: no traffic, no alert). */
export const isTriggered = (alert: AlertRow, value: number) => value > 0 && value >= alert.threshold;

async function targetsOf(db: Executor, alert: AlertRow): Promise<{ targets: HookTargets; name: string }> {
  if (alert.reference_type === 'API') {
    const api = await findApiById(db, alert.reference_id);
    return { targets: { api: alert.reference_id }, name: api ? `the API ${api.name}` : 'an API' };
  }
  if (alert.reference_type === 'APPLICATION') {
    const application = await findApplicationById(db, alert.reference_id);
    return {
      targets: { application: alert.reference_id },
      name: application ? `the application ${application.name}` : 'an application',
    };
  }
  return { targets: { portal: true }, name: 'the platform' };
}

const shown = (alert: AlertRow, value: number) =>
  alert.threshold_type === 'PERCENT_RATE' ? `${Math.round(value * 10) / 10}%` : String(value);

/**
 * Evaluates the enabled alerts once a minute over the last 5 minutes of reported requests (through the
 * analytics layer) or health checks. A change of state (OK to TRIGGERED, or back) is kept in the alert's
 * history and told through the notification settings of the alert's scope (hook ALERT): in the app, by
 * mail, by webhook. The state is recorded only if no other process recorded it meanwhile.
 */
export function alertsEvaluationJob(deps: AlertsJobDeps): ScheduledJob {
  return {
    name: 'alerts',
    async run() {
      const now = deps.now();
      const due = await findAlertsDue(deps.db, now - ALERT_EVALUATION_EVERY_MS + 1, BATCH);
      if (due.some((alert) => alert.type !== 'HEALTH_CHECK')) await deps.requests.catchUp();
      for (const alert of due) {
        const value = await measureAlert(deps.db, alert, now);
        const state = isTriggered(alert, value) ? 'TRIGGERED' : 'OK';
        await deps.db.transaction().execute(async (trx) => {
          const recorded = await recordAlertEvaluation(trx, alert.id, alert.evaluated_at, {
            state,
            evaluated_at: now,
          });
          if (!recorded || state === alert.state) return;
          const metric = alertMetric(alert.metric_type)?.description ?? alert.metric_type;
          const { targets, name } = await targetsOf(trx, alert);
          const message =
            state === 'TRIGGERED'
              ? `The alert ${alert.name} of ${name} triggered: ${metric} reached ${shown(alert, value)} over the last 5 minutes (threshold ${shown(alert, alert.threshold)}).`
              : `The alert ${alert.name} of ${name} is resolved: ${metric} is at ${shown(alert, value)} over the last 5 minutes (threshold ${shown(alert, alert.threshold)}).`;
          await insertAlertEvent(trx, {
            id: newId(),
            alert_id: alert.id,
            state: state === 'TRIGGERED' ? 'TRIGGERED' : 'RESOLVED',
            value,
            threshold: alert.threshold,
            message,
            created_at: now,
          });
          await deps.hooks.trigger(trx, targets, {
            hook: 'ALERT',
            title: state === 'TRIGGERED' ? `Alert: ${alert.name}` : `Alert resolved: ${alert.name}`,
            message,
            params: {
              alert: { id: alert.id, name: alert.name, metricType: alert.metric_type, state, value },
            },
          });
        });
      }
    },
  };
}
