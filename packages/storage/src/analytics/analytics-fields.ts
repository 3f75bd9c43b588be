/**
 * The fields analytics and log queries may name (Gravitee 1.x names, as the console writes them), and
 * the `requests` column behind each. Nothing else reaches SQL: an unknown field is refused by name.
 */
export interface AnalyticsField {
  column: string;
  numeric: boolean;
}

const text = (column: string): AnalyticsField => ({ column, numeric: false });
const numeric = (column: string): AnalyticsField => ({ column, numeric: true });

export const ANALYTICS_FIELDS: Readonly<Record<string, AnalyticsField>> = {
  id: text('id'),
  transaction: text('transaction_id'),
  '@timestamp': numeric('timestamp'),
  gateway: text('gateway'),
  api: text('api_id'),
  application: text('application_id'),
  plan: text('plan_id'),
  subscription: text('subscription_id'),
  'api-key': text('api_key'),
  user: text('user'),
  tenant: text('tenant'),
  method: text('method'),
  path: text('path'),
  uri: text('uri'),
  'mapped-path': text('mapped_path'),
  host: text('host'),
  status: numeric('status'),
  'request-content-length': numeric('request_content_length'),
  'response-content-length': numeric('response_content_length'),
  'response-time': numeric('response_time'),
  'api-response-time': numeric('api_response_time'),
  'proxy-latency': numeric('latency'),
  endpoint: text('endpoint'),
  'remote-address': text('remote_address'),
  'user-agent': text('user_agent'),
  // The optional widgets user_agent_name and os_name (Gravitee's names of those fields, and ours).
  'user_agent.name': text('user_agent_name'),
  'user-agent-name': text('user_agent_name'),
  'user_agent.os_name': text('os_name'),
  'os-name': text('os_name'),
  // The optional widgets geo_country and geo_city (with a GeoIP database configured).
  'geoip.country_iso_code': text('geo_country'),
  'geoip.city_name': text('geo_city'),
  'security-type': text('security_type'),
  'error-key': text('error_key'),
  // The W3C trace id of the call (distributed tracing); `trace` is its short name.
  'trace-id': text('trace_id'),
  trace: text('trace_id'),
};

/**
 * Gravitee's gateway reported the HTTP method as the index of this list (the console's method filter
 * sends `method:3` for GET); our rows keep the name, and a filter may use either.
 */
export const HTTP_METHOD_CODES = [
  'OTHER',
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
] as const;

/** The field's column, or undefined when the name is not one a query may use. */
export function analyticsField(name: string): AnalyticsField | undefined {
  return Object.prototype.hasOwnProperty.call(ANALYTICS_FIELDS, name) ? ANALYTICS_FIELDS[name] : undefined;
}
