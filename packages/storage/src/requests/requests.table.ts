import type { Generated, Insertable, Selectable } from 'kysely';

/** One request that went through a gateway (the metrics of the request log entity). */
export interface RequestTable {
  id: string;
  transaction_id: string;
  timestamp: number;
  gateway: string;
  api_id: string | null;
  application_id: string | null;
  plan_id: string | null;
  subscription_id: string | null;
  api_key: string | null;
  user: string | null;
  tenant: string | null;
  method: string;
  path: string;
  uri: string;
  mapped_path: string | null;
  host: string | null;
  status: number;
  request_content_length: number;
  response_content_length: number;
  /** Gateway response time in ms. */
  response_time: number;
  /** Backend response time in ms; -1 when the backend was not called. */
  api_response_time: number;
  /** response_time - api_response_time: the gateway's own share. */
  latency: number;
  endpoint: string | null;
  remote_address: string | null;
  user_agent: string | null;
  security_type: string | null;
  error_key: string | null;
  message: string | null;
  has_log: number;
  /** W3C trace id (32 hex characters) of the call's trace; null when tracing was off. */
  trace_id: Generated<string | null>;
  /** Browser or client named by the User-Agent (client-names.ts), filled by the writer; null without one. */
  user_agent_name: Generated<string | null>;
  /** Operating system named by the User-Agent, filled by the writer; null without one. */
  os_name: Generated<string | null>;
  /** ISO code of the client address's country (GeoIP database configured), filled by the writer. */
  geo_country: Generated<string | null>;
  /** English name of the client address's city (GeoIP database configured), filled by the writer. */
  geo_city: Generated<string | null>;
}
export type RequestRow = Selectable<RequestTable>;
export type NewRequestRow = Insertable<RequestTable>;

/** Headers and bodies of a logged request (JSON of {method, uri, status, headers, body}). */
export interface RequestLogTable {
  id: string;
  timestamp: number;
  api_id: string | null;
  application_id: string | null;
  client_request: string | null;
  proxy_request: string | null;
  client_response: string | null;
  proxy_response: string | null;
}
export type RequestLogRow = Selectable<RequestLogTable>;
export type NewRequestLogRow = Insertable<RequestLogTable>;

/**
 * A part of a gateway's reports, stored whole until the management server's indexer turns it into
 * `requests` and `request_logs` rows (request-segments.ts describes `data`).
 */
export interface RequestSegmentTable {
  id: Generated<number>;
  /** Requests in the segment. */
  count: number;
  /** Earliest and latest request timestamps of the segment (ms). */
  first_timestamp: number;
  last_timestamp: number;
  data: Uint8Array;
}
export type NewRequestSegmentRow = Insertable<RequestSegmentTable>;
