import type { Insertable, Selectable, Updateable } from 'kysely';

/** An alert of an API, an application or the platform (reference PLATFORM / DEFAULT). */
export interface AlertTable {
  id: string;
  reference_type: string;
  reference_id: string;
  name: string;
  description: string | null;
  enabled: number;
  /** REQUEST or HEALTH_CHECK. */
  type: string;
  /** What is measured (`alerts/metrics`): STATUS_5XX, HEALTH_CHECK_FAILURE... */
  metric_type: string;
  /** PERCENT_RATE or COUNT. */
  threshold_type: string;
  threshold: number;
  /** Only the requests of this plan (request alerts of an API). */
  plan: string | null;
  /** OK or TRIGGERED: the state its last evaluation found. */
  state: string;
  evaluated_at: number | null;
  created_at: number;
  updated_at: number;
}
export type AlertRow = Selectable<AlertTable>;
export type NewAlertRow = Insertable<AlertTable>;
export type AlertChanges = Updateable<AlertTable>;

/** The history of an alert: each time it triggered or resolved, with the value measured. */
export interface AlertEventTable {
  id: string;
  alert_id: string;
  /** TRIGGERED or RESOLVED. */
  state: string;
  value: number;
  threshold: number;
  message: string;
  created_at: number;
}
export type AlertEventRow = Selectable<AlertEventTable>;
export type NewAlertEventRow = Insertable<AlertEventTable>;
