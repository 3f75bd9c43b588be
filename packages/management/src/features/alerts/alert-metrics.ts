/** What an alert watches: requests (REQUEST) or the health checks of an API's endpoints (HEALTH_CHECK). */
export type AlertType = 'REQUEST' | 'HEALTH_CHECK';
export type ThresholdType = 'PERCENT_RATE' | 'COUNT';
export type AlertReferenceType = 'API' | 'APPLICATION' | 'PLATFORM';

export interface AlertMetric {
  key: string;
  description: string;
  type: AlertType;
  thresholds: ThresholdType[];
  /** For request metrics: the requests counted, as an analytics filter (Lucene syntax). */
  filter?: string;
}

/** The spec's bounds of a threshold (section 9: Alert thresholds). */
export const THRESHOLD_LIMITS: Record<ThresholdType, { min: number; max: number; label: string }> = {
  PERCENT_RATE: { min: 0, max: 100, label: 'Percent rate' },
  COUNT: { min: 0, max: 1_000_000, label: 'Count' },
};

/** An alert is evaluated over the requests or checks of this last window... */
export const ALERT_WINDOW_MS = 5 * 60_000;
/** ...once a minute at most. */
export const ALERT_EVALUATION_EVERY_MS = 60_000;

const BOTH: ThresholdType[] = ['PERCENT_RATE', 'COUNT'];

/** `GET alerts/metrics`: every metric an alert may watch, with the threshold types it accepts. */
export const ALERT_METRICS: readonly AlertMetric[] = [
  {
    key: 'STATUS_5XX',
    description: 'Server errors (5xx)',
    type: 'REQUEST',
    thresholds: BOTH,
    filter: 'status:[500 TO 599]',
  },
  {
    key: 'STATUS_4XX',
    description: 'Client errors (4xx)',
    type: 'REQUEST',
    thresholds: BOTH,
    filter: 'status:[400 TO 499]',
  },
  {
    key: 'STATUS_500',
    description: 'Internal server errors (500)',
    type: 'REQUEST',
    thresholds: BOTH,
    filter: 'status:500',
  },
  {
    key: 'STATUS_404',
    description: 'Not found (404)',
    type: 'REQUEST',
    thresholds: BOTH,
    filter: 'status:404',
  },
  {
    key: 'STATUS_429',
    description: 'Rejected by a rate limit or quota (429)',
    type: 'REQUEST',
    thresholds: BOTH,
    filter: 'status:429',
  },
  {
    key: 'HEALTH_CHECK_FAILURE',
    description: 'Failed health checks',
    type: 'HEALTH_CHECK',
    thresholds: BOTH,
  },
];

export const alertMetric = (key: string) => ALERT_METRICS.find((m) => m.key === key);

/** Which types each scope may hold: health checks belong to APIs. */
export const TYPES_OF_SCOPE: Record<AlertReferenceType, AlertType[]> = {
  API: ['REQUEST', 'HEALTH_CHECK'],
  APPLICATION: ['REQUEST'],
  PLATFORM: ['REQUEST'],
};
