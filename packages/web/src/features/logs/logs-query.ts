/**
 * The state of a log list as its URL carries it (`/logs?from&to&q&page&size&field`, console-apis.md
 * 2.10): the timeframe, the filters turned into the Lucene-syntax `q` the server reads, paging, sorting.
 */
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

/** The quick timeframes of section 9 (the logs use their ranges; the buckets are the dashboards'). */
export const LOG_TIMEFRAMES = [
  { id: '5m', range: 5 * M },
  { id: '30m', range: 30 * M },
  { id: '1h', range: H },
  { id: '3h', range: 3 * H },
  { id: '6h', range: 6 * H },
  { id: '12h', range: 12 * H },
  { id: '1d', range: D },
  { id: '3d', range: 3 * D },
  { id: '7d', range: 7 * D },
  { id: '14d', range: 14 * D },
  { id: '30d', range: 30 * D },
  { id: '90d', range: 90 * D },
] as const;
export type LogTimeframe = (typeof LOG_TIMEFRAMES)[number]['id'];
export const DEFAULT_LOG_TIMEFRAME: LogTimeframe = '1d';

/** Auto-refresh choices in seconds; 0 (off) is the default. */
export const LOG_REFRESH_CHOICES = [0, 5, 10, 30] as const;

export const LOG_PAGE_SIZES = [5, 10, 15, 20, 30, 50, 100] as const;
export const DEFAULT_LOG_PAGE_SIZE = 15;
export const DEFAULT_LOG_SORT = '-@timestamp';

/** Timeouts of the logs and log export calls (section 9). */
export const LOGS_TIMEOUT = 30_000;

/** The methods of the method filter (section 9). */
export const LOG_METHODS = [
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
  'OTHER',
] as const;

/** Status classes of the status filter: 1xx to 5xx. */
export const LOG_STATUS_CLASSES = [1, 2, 3, 4, 5] as const;

export interface LogFilters {
  id: string;
  transaction: string;
  methods: string[];
  statuses: number[];
  /** Applications (API logs) or APIs (application logs). */
  consumers: string[];
  plans: string[];
  uri: string;
  /** Free Lucene-syntax text, ANDed with the rest. */
  query: string;
}

export const NO_LOG_FILTERS: LogFilters = {
  id: '',
  transaction: '',
  methods: [],
  statuses: [],
  consumers: [],
  plans: [],
  uri: '',
  query: '',
};

/** Characters special in the Lucene query syntax. */
const SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/\s]/g;

/** A term with the Lucene special characters escaped. */
export const escapeTerm = (value: string) => value.replace(SPECIAL, (c) => `\\${c}`);

/** The URI filter: a leading slash and a trailing wildcard, special characters escaped (section 5). */
export function uriTerm(uri: string): string {
  const trimmed = uri.trim();
  const path = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  return `${escapeTerm(path.replace(/\*+$/, ''))}*`;
}

const anyOf = (field: string, values: readonly string[]) =>
  values.length === 1 ? `${field}:${values[0]}` : `(${values.map((v) => `${field}:${v}`).join(' OR ')})`;

/** The `q` of the filters: every filled filter ANDed, the values of one filter ORed. */
export function filtersToQuery(filters: LogFilters, consumerField: 'application' | 'api'): string {
  const parts: string[] = [];
  if (filters.id.trim()) parts.push(`id:${escapeTerm(filters.id.trim())}`);
  if (filters.transaction.trim()) parts.push(`transaction:${escapeTerm(filters.transaction.trim())}`);
  if (filters.methods.length > 0) parts.push(anyOf('method', filters.methods));
  if (filters.statuses.length > 0)
    parts.push(
      anyOf(
        'status',
        filters.statuses.map((c) => `[${c}00 TO ${c}99]`),
      ),
    );
  if (filters.consumers.length > 0) parts.push(anyOf(consumerField, filters.consumers.map(escapeTerm)));
  if (filters.plans.length > 0) parts.push(anyOf('plan', filters.plans.map(escapeTerm)));
  if (filters.uri.trim()) parts.push(`uri:${uriTerm(filters.uri)}`);
  if (filters.query.trim()) parts.push(parts.length > 0 ? `(${filters.query.trim()})` : filters.query.trim());
  return parts.join(' AND ');
}

export interface LogsView {
  /** A quick timeframe, or undefined for a custom window given by from/to. */
  timeframe: LogTimeframe | undefined;
  from: number;
  to: number;
  filters: LogFilters;
  page: number;
  size: number;
  field: string;
}

const list = (params: URLSearchParams, name: string) =>
  (params.get(name) ?? '').split(',').filter((v) => v !== '');

const positive = (text: string | null, fallback: number) => {
  const n = Number(text);
  return text !== null && Number.isInteger(n) && n > 0 ? n : fallback;
};

/** The view in the URL; a quick timeframe (`timeframe`) ends now, else `from`/`to`, else the default. */
export function viewFromParams(params: URLSearchParams, now: number): LogsView {
  const quick = LOG_TIMEFRAMES.find((t) => t.id === params.get('timeframe'));
  const from = Number(params.get('from'));
  const to = Number(params.get('to'));
  const custom = !quick && params.get('from') && params.get('to') && from < to;
  const window = custom
    ? { timeframe: undefined, from, to }
    : {
        timeframe: (quick?.id ?? DEFAULT_LOG_TIMEFRAME) as LogTimeframe,
        from: now - (quick ?? LOG_TIMEFRAMES.find((t) => t.id === DEFAULT_LOG_TIMEFRAME)!).range,
        to: now,
      };
  const size = positive(params.get('size'), DEFAULT_LOG_PAGE_SIZE);
  return {
    ...window,
    filters: {
      id: params.get('id') ?? '',
      transaction: params.get('transaction') ?? '',
      methods: list(params, 'method').filter((m) => (LOG_METHODS as readonly string[]).includes(m)),
      statuses: list(params, 'status')
        .map(Number)
        .filter((s) => (LOG_STATUS_CLASSES as readonly number[]).includes(s)),
      consumers: list(params, 'consumer'),
      plans: list(params, 'plan'),
      uri: params.get('uri') ?? '',
      query: params.get('q') ?? '',
    },
    page: positive(params.get('page'), 1),
    size: (LOG_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_LOG_PAGE_SIZE,
    field: params.get('field') || DEFAULT_LOG_SORT,
  };
}

/** The URL parameters of a view (defaults left out). */
export function viewToParams(view: LogsView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.timeframe) {
    if (view.timeframe !== DEFAULT_LOG_TIMEFRAME) params.set('timeframe', view.timeframe);
  } else {
    params.set('from', String(view.from));
    params.set('to', String(view.to));
  }
  const f = view.filters;
  if (f.id) params.set('id', f.id);
  if (f.transaction) params.set('transaction', f.transaction);
  if (f.methods.length) params.set('method', f.methods.join(','));
  if (f.statuses.length) params.set('status', f.statuses.join(','));
  if (f.consumers.length) params.set('consumer', f.consumers.join(','));
  if (f.plans.length) params.set('plan', f.plans.join(','));
  if (f.uri) params.set('uri', f.uri);
  if (f.query) params.set('q', f.query);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.size !== DEFAULT_LOG_PAGE_SIZE) params.set('size', String(view.size));
  if (view.field !== DEFAULT_LOG_SORT) params.set('field', view.field);
  return params;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The log date format, yyyy-MM-dd HH:mm:ss.sss (local time). */
export function formatLogDate(epochMs: number): string {
  const d = new Date(epochMs);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
  );
}

/** A log line is flagged as an error from status 400. */
export const isErrorStatus = (status: number) => status >= 400;
