import type { AlertEventRow, AlertRow, Database } from '@portico/storage';
import {
  deleteAlert,
  findAlert,
  findAlertEvents,
  findAlertsOf,
  findApiById,
  findApplicationById,
  findPlanById,
  insertAlert,
  updateAlert,
} from '@portico/storage';
import { invalidField, notFound } from '@portico/model';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AlertInput, CheckedAlert } from './alert-input.js';
import { checkedAlert } from './alert-input.js';
import type { AlertReferenceType } from './alert-metrics.js';

export interface AlertScope {
  type: AlertReferenceType;
  /** The API's or application's id; `DEFAULT` for the platform. */
  id: string;
}

/** The columns of an alert's rule. */
const ruleColumns = (alert: CheckedAlert) => ({
  name: alert.name,
  description: alert.description,
  enabled: alert.enabled ? 1 : 0,
  type: alert.type,
  metric_type: alert.metricType,
  threshold_type: alert.thresholdType,
  threshold: alert.threshold,
  plan: alert.plan,
});

/** The spec's Alert fields; the enumerations in the spec's lower case. */
export const toAlertJson = (row: AlertRow) => ({
  id: row.id,
  name: row.name,
  description: row.description ?? undefined,
  enabled: row.enabled === 1,
  type: row.type.toLowerCase(),
  metricType: row.metric_type,
  thresholdType: row.threshold_type.toLowerCase(),
  threshold: row.threshold,
  plan: row.plan ?? undefined,
  reference_type: row.reference_type.toLowerCase(),
  reference_id: row.reference_id,
  state: row.state,
  evaluated_at: row.evaluated_at ?? undefined,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toAlertEventJson = (row: AlertEventRow) => ({
  id: row.id,
  state: row.state,
  value: row.value,
  threshold: row.threshold,
  message: row.message,
  created_at: row.created_at,
});

/** Alerts of an API, an application or the platform (`.../alerts`), and their history. */
export class AlertsService {
  constructor(private readonly deps: { db: Kysely<Database>; audit: AuditService; now(): number }) {}

  private async assertScope(scope: AlertScope): Promise<void> {
    if (scope.type === 'API' && !(await findApiById(this.deps.db, scope.id))) throw notFound('Api', scope.id);
    if (scope.type === 'APPLICATION' && !(await findApplicationById(this.deps.db, scope.id)))
      throw notFound('Application', scope.id);
  }

  private async alertOf(scope: AlertScope, id: string): Promise<AlertRow> {
    await this.assertScope(scope);
    const row = await findAlert(this.deps.db, id);
    if (!row || row.reference_type !== scope.type || row.reference_id !== scope.id)
      throw notFound('Alert', id);
    return row;
  }

  private async checked(scope: AlertScope, input: AlertInput) {
    const alert = checkedAlert(input, scope.type);
    if (alert.plan) {
      const plan = await findPlanById(this.deps.db, alert.plan);
      if (!plan || plan.api_id !== scope.id)
        throw invalidField('plan', `Plan [${alert.plan}] is not a plan of this API.`);
    }
    return alert;
  }

  async list(scope: AlertScope) {
    await this.assertScope(scope);
    return (await findAlertsOf(this.deps.db, scope.type, scope.id)).map(toAlertJson);
  }

  async create(actorId: string, scope: AlertScope, input: AlertInput) {
    await this.assertScope(scope);
    const alert = await this.checked(scope, input);
    const now = this.deps.now();
    const row: AlertRow = {
      id: newId(),
      reference_type: scope.type,
      reference_id: scope.id,
      ...ruleColumns(alert),
      state: 'OK',
      evaluated_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.db.transaction().execute(async (trx) => {
      await insertAlert(trx, row);
      await this.record(trx, actorId, scope, 'ALERT_CREATED', row, undefined, row);
    });
    return toAlertJson(row);
  }

  async update(actorId: string, scope: AlertScope, id: string, input: AlertInput) {
    const before = await this.alertOf(scope, id);
    const alert = await this.checked(scope, input);
    const changes = {
      ...ruleColumns(alert),
      // A changed rule starts again from OK and is evaluated at the next pass.
      state: 'OK',
      evaluated_at: null,
      updated_at: Math.max(this.deps.now(), before.updated_at + 1),
    };
    const after = { ...before, ...changes };
    await this.deps.db.transaction().execute(async (trx) => {
      await updateAlert(trx, id, changes);
      await this.record(trx, actorId, scope, 'ALERT_UPDATED', after, before, after);
    });
    return toAlertJson(after);
  }

  async remove(actorId: string, scope: AlertScope, id: string): Promise<void> {
    const before = await this.alertOf(scope, id);
    await this.deps.db.transaction().execute(async (trx) => {
      await deleteAlert(trx, id);
      await this.record(trx, actorId, scope, 'ALERT_DELETED', before, before, undefined);
    });
  }

  async history(scope: AlertScope, id: string, page: number, size: number) {
    await this.alertOf(scope, id);
    const { rows, total } = await findAlertEvents(this.deps.db, id, {
      offset: (page - 1) * size,
      limit: size,
    });
    return {
      content: rows.map(toAlertEventJson),
      pageNumber: page,
      pageElements: rows.length,
      totalElements: total,
    };
  }

  private record(
    db: Kysely<Database>,
    actorId: string,
    scope: AlertScope,
    event: string,
    row: AlertRow,
    before: AlertRow | undefined,
    after: AlertRow | undefined,
  ) {
    return this.deps.audit.record(db, {
      referenceType: scope.type === 'PLATFORM' ? 'ENVIRONMENT' : scope.type,
      referenceId: scope.type === 'PLATFORM' ? 'DEFAULT' : scope.id,
      userId: actorId,
      event,
      properties: { ALERT: row.id },
      before: before && toAlertJson(before),
      after: after && toAlertJson(after),
    });
  }
}
