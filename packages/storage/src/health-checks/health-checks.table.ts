import type { Insertable, Selectable } from 'kysely';

/** A health check of an endpoint: state 3 UP, 2 TRANSITIONALLY_UP, 1 TRANSITIONALLY_DOWN, 0 DOWN. */
export interface HealthCheckTable {
  id: string;
  api_id: string;
  /** Endpoint name (group:endpoint is not needed: names are unique in an API). */
  endpoint: string;
  gateway: string;
  timestamp: number;
  success: number;
  state: number;
  /** The state changed with this check. */
  transition: number;
  response_time: number;
  message: string | null;
  /** JSON {method, uri, headers, body}. */
  request: string | null;
  /** JSON {status, headers, body}. */
  response: string | null;
}
export type HealthCheckRow = Selectable<HealthCheckTable>;
export type NewHealthCheckRow = Insertable<HealthCheckTable>;
