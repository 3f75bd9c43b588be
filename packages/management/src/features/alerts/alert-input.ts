import { invalidField } from '@portico/model';
import type { AlertReferenceType, AlertType, ThresholdType } from './alert-metrics.js';
import { THRESHOLD_LIMITS, TYPES_OF_SCOPE, alertMetric } from './alert-metrics.js';

/** An alert as clients send it (the spec's field names; `request` and `REQUEST` both accepted). */
export interface AlertInput {
  name?: string | null;
  description?: string | null;
  enabled?: boolean | null;
  type?: string | null;
  metricType?: string | null;
  thresholdType?: string | null;
  threshold?: number | string | null;
  plan?: string | null;
}

export interface CheckedAlert {
  name: string;
  description: string | null;
  enabled: boolean;
  type: AlertType;
  metricType: string;
  thresholdType: ThresholdType;
  threshold: number;
  plan: string | null;
}

export const ALERT_NAME_MAX = 256;
export const ALERT_DESCRIPTION_MAX = 1000;

const upper = (value: string | null | undefined) => (value ?? '').trim().toUpperCase();

/**
 * The rules of an alert (console-applications-and-settings.md section 5): name, metric type, threshold
 * type and threshold required; percent_rate 0 to 100; count 0 to 1,000,000; the metric must be of the
 * alert's type, the threshold type one it accepts, and the type one the scope may hold.
 */
export function checkedAlert(input: AlertInput, scope: AlertReferenceType): CheckedAlert {
  const name = input.name?.trim() ?? '';
  if (!name) throw invalidField('name', 'Name is required.');
  if (name.length > ALERT_NAME_MAX)
    throw invalidField('name', `Name must be at most ${ALERT_NAME_MAX} characters long.`);
  const description = input.description?.trim() || null;
  if (description && description.length > ALERT_DESCRIPTION_MAX)
    throw invalidField(
      'description',
      `Description must be at most ${ALERT_DESCRIPTION_MAX} characters long.`,
    );
  const type = (upper(input.type) || 'REQUEST') as AlertType;
  if (!TYPES_OF_SCOPE[scope].includes(type))
    throw invalidField(
      'type',
      `Type must be one of ${TYPES_OF_SCOPE[scope].map((t) => t.toLowerCase()).join(', ')}.`,
    );
  const metricType = upper(input.metricType);
  if (!metricType) throw invalidField('metricType', 'Metric type is required.');
  const metric = alertMetric(metricType);
  if (!metric || metric.type !== type)
    throw invalidField(
      'metricType',
      `Metric type [${metricType}] is not a metric of ${type.toLowerCase()} alerts.`,
    );
  const thresholdType = upper(input.thresholdType) as ThresholdType;
  if (!thresholdType) throw invalidField('thresholdType', 'Threshold type is required.');
  if (!metric.thresholds.includes(thresholdType))
    throw invalidField(
      'thresholdType',
      `Threshold type must be one of ${metric.thresholds.map((t) => t.toLowerCase()).join(', ')}.`,
    );
  const raw = input.threshold;
  if (raw === null || raw === undefined || raw === '')
    throw invalidField('threshold', 'Threshold is required.');
  const threshold = Number(raw);
  const limits = THRESHOLD_LIMITS[thresholdType];
  if (!Number.isFinite(threshold) || threshold < limits.min || threshold > limits.max)
    throw invalidField(
      'threshold',
      `${limits.label} threshold must be between ${limits.min} and ${limits.max}.`,
    );
  const plan = input.plan?.trim() || null;
  if (plan && (scope !== 'API' || type !== 'REQUEST'))
    throw invalidField('plan', 'Only the request alerts of an API may watch one plan.');
  return {
    name,
    description,
    enabled: input.enabled !== false,
    type,
    metricType,
    thresholdType,
    threshold,
    plan,
  };
}
