import { notFound } from '@portico/model';
import type { Executor, RequestLogRow, RequestRow } from '@portico/storage';
import { findRequestById, findRequestLogById, searchRequests } from '@portico/storage';
import type { Metadata } from './analytics.metadata.js';
import { metadataOf } from './analytics.metadata.js';
import type { AnalyticsTarget, RequestRows } from './analytics.service.js';
import { scopeOf } from './analytics.service.js';

/** The logs query (Gravitee's LogsParam): `field` with a leading `-`, or `order=false`, sorts descending. */
export interface LogsQuery {
  from: number;
  to: number;
  query?: string;
  page: number;
  size: number;
  field: string;
  order?: boolean;
}

export interface LogItem {
  id: string;
  timestamp: number;
  transactionId: string;
  path: string;
  method: string;
  status: number;
  responseTime: number;
  api: string | null;
  application: string | null;
  plan: string | null;
  user: string | null;
  endpoint: boolean;
}

export interface LogsPage {
  logs: LogItem[];
  total: number;
  metadata: Metadata;
}

const toItem = (r: RequestRow): LogItem => ({
  id: r.id,
  timestamp: Number(r.timestamp),
  transactionId: r.transaction_id,
  path: r.path,
  method: r.method,
  status: r.status,
  responseTime: Number(r.response_time),
  api: r.api_id,
  application: r.application_id,
  plan: r.plan_id,
  user: r.user,
  endpoint: r.endpoint !== null,
});

/** Adds the metadata of each kind's ids found in the items. */
async function metadataFor(
  db: Executor,
  ids: Partial<Record<'api' | 'application' | 'plan' | 'gateway', (string | null)[]>>,
) {
  const metadata: Metadata = {};
  for (const [field, values] of Object.entries(ids)) {
    const keys = [...new Set(values.filter((v): v is string => v !== null))];
    Object.assign(metadata, await metadataOf(db, field, keys));
  }
  return metadata;
}

const side = (text: string | null) => (text ? (JSON.parse(text) as Record<string, unknown>) : null);

/** The request logs of an API or an application: pages, detail, and the rows a CSV export writes. */
export class LogsService {
  constructor(
    private readonly db: Executor,
    private readonly requests: RequestRows,
  ) {}

  async search(target: AnalyticsTarget, q: LogsQuery): Promise<LogsPage> {
    await this.requests.catchUp();
    const descending = q.field.startsWith('-');
    const { rows, total } = await searchRequests(this.db, scopeOf(target, q.from, q.to, q.query), {
      sortField: descending ? q.field.slice(1) : q.field,
      ascending: descending ? false : q.order === true,
      offset: (q.page - 1) * q.size,
      limit: q.size,
    });
    const logs = rows.map(toItem);
    // The API scope names the applications and plans; the application scope, the APIs and plans.
    const metadata = await metadataFor(this.db, {
      ...('applicationId' in target ? {} : { application: logs.map((l) => l.application) }),
      ...('apiId' in target ? {} : { api: logs.map((l) => l.api) }),
      plan: logs.map((l) => l.plan),
    });
    return { logs, total, metadata };
  }

  /** One request of the API or application with its logged headers and bodies; 404 when it is not theirs. */
  async detail(target: AnalyticsTarget, logId: string) {
    await this.requests.catchUp();
    const row = await findRequestById(this.db, logId);
    const owned =
      row &&
      ('apiId' in target
        ? row.api_id === target.apiId
        : 'applicationId' in target
          ? row.application_id === target.applicationId
          : true);
    if (!row || !owned) throw notFound('Log', logId);
    const log: RequestLogRow | undefined = row.has_log ? await findRequestLogById(this.db, logId) : undefined;
    const metadata = await metadataFor(this.db, {
      api: [row.api_id],
      application: [row.application_id],
      plan: [row.plan_id],
      gateway: [row.gateway],
    });
    return {
      id: row.id,
      transactionId: row.transaction_id,
      // The W3C trace id of the call when the gateway traced it (distributed tracing), else null.
      traceId: row.trace_id ?? null,
      timestamp: Number(row.timestamp),
      status: row.status,
      method: row.method,
      uri: row.uri,
      path: row.path,
      host: row.host,
      remoteAddress: row.remote_address,
      requestContentLength: Number(row.request_content_length),
      responseContentLength: Number(row.response_content_length),
      responseTime: Number(row.response_time),
      apiResponseTime: Number(row.api_response_time),
      apiKey: row.api_key,
      securityType: row.security_type,
      securityToken: row.api_key,
      api: row.api_id,
      application: row.application_id,
      plan: row.plan_id,
      user: row.user,
      endpoint: row.endpoint,
      tenant: row.tenant,
      subscription: row.subscription_id,
      gateway: row.gateway,
      message: row.message,
      clientRequest: side(log?.client_request ?? null),
      proxyRequest: side(log?.proxy_request ?? null),
      clientResponse: side(log?.client_response ?? null),
      proxyResponse: side(log?.proxy_response ?? null),
      metadata,
    };
  }
}

const CSV_SEPARATOR = ';';

/**
 * The CSV of a page of logs, as Gravitee 1.x writes it: `;`-separated, Date, Request Id, Transaction Id,
 * Method, Path, Status, Response Time, Plan, User (when the user column is on), then the Application
 * (API logs) or the API (application logs), by name. No logs, no text.
 */
export function logsAsCsv(page: LogsPage, scope: 'api' | 'application', userDisplayed: boolean): string {
  if (page.logs.length === 0) return '';
  const nameOf = (id: string | null) => (id ? (page.metadata[id]?.name ?? '') : '');
  const cell = (value: string | number) => {
    const text = String(value);
    return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const header = [
    'Date',
    'Request Id',
    'Transaction Id',
    'Method',
    'Path',
    'Status',
    'Response Time',
    'Plan',
  ];
  if (userDisplayed && scope === 'api') header.push('User');
  header.push(scope === 'api' ? 'Application' : 'API');
  const lines = page.logs.map((log) => {
    const cells: (string | number)[] = [
      new Date(log.timestamp).toISOString(),
      log.id,
      log.transactionId,
      log.method,
      log.path,
      log.status,
      log.responseTime,
      nameOf(log.plan),
    ];
    if (userDisplayed && scope === 'api') cells.push(log.user ?? '');
    cells.push(nameOf(scope === 'api' ? log.application : log.api));
    return cells.map(cell).join(CSV_SEPARATOR);
  });
  return [header.join(CSV_SEPARATOR), ...lines].join('\n') + '\n';
}
