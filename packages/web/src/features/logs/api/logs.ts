import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { LOGS_TIMEOUT } from '../logs-query';

/** Whose logs: an API's (api-log-r) or an application's (application-log-r). */
export interface LogsScope {
  kind: 'api' | 'application';
  id: string;
}

export const scopePath = (scope: LogsScope, rest = '') =>
  `${scope.kind === 'api' ? 'apis' : 'applications'}/${encodeURIComponent(scope.id)}${rest}`;

/** Log list entry: id, timestamp, status, api, plan, user, method, path, responseTime. */
export interface LogEntry {
  id: string;
  timestamp: number;
  transactionId: string;
  status: number;
  api: string | null;
  application: string | null;
  plan: string | null;
  user: string | null;
  method: string;
  path: string;
  responseTime: number;
}

/** Names of the APIs, applications, plans and gateways the logs name, by id. */
export type LogMetadata = Record<string, { name?: string; hostname?: string; deleted?: string | boolean }>;

export interface LogsPage {
  logs: LogEntry[];
  total: number;
  metadata: LogMetadata;
}

/** Logs query: page, size, from, to, query, field (default -@timestamp). */
export interface LogsQuery {
  from: number;
  to: number;
  query: string;
  page: number;
  size: number;
  field: string;
}

export interface LogSide {
  method?: string;
  uri?: string;
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string;
}

export interface LogDetail {
  id: string;
  transactionId: string;
  /** W3C trace id of the call, when the gateway traced it. */
  traceId?: string | null;
  timestamp: number;
  status: number;
  method: string;
  uri: string;
  path: string;
  host: string | null;
  remoteAddress: string | null;
  requestContentLength: number;
  responseContentLength: number;
  responseTime: number;
  apiResponseTime: number;
  apiKey: string | null;
  securityType: string | null;
  securityToken: string | null;
  api: string | null;
  application: string | null;
  plan: string | null;
  user: string | null;
  endpoint: string | null;
  tenant: string | null;
  subscription: string | null;
  gateway: string | null;
  message: string | null;
  clientRequest: LogSide | null;
  proxyRequest: LogSide | null;
  clientResponse: LogSide | null;
  proxyResponse: LogSide | null;
  metadata: LogMetadata;
}

export const logKeys = {
  all: (scope: LogsScope) => [scope.kind === 'api' ? 'apis' : 'applications', scope.id, 'logs'] as const,
  list: (scope: LogsScope, query: LogsQuery) => [...logKeys.all(scope), 'list', query] as const,
  detail: (scope: LogsScope, logId: string) => [...logKeys.all(scope), 'detail', logId] as const,
};

const queryParams = (q: LogsQuery) => ({
  from: q.from,
  to: q.to,
  query: q.query || undefined,
  page: q.page,
  size: q.size,
  field: q.field,
});

/** `GET {apis|applications}/{id}/logs` (30 s timeout); refetched every `refreshSeconds` when set. */
export const useLogs = (scope: LogsScope, query: LogsQuery, refreshSeconds: number) =>
  useQuery({
    queryKey: logKeys.list(scope, query),
    queryFn: ({ signal }) =>
      http.get<LogsPage>(scopePath(scope, '/logs'), {
        signal,
        timeout: LOGS_TIMEOUT,
        query: queryParams(query),
      }),
    placeholderData: keepPreviousData,
    refetchInterval: refreshSeconds > 0 ? refreshSeconds * 1000 : false,
  });

/** `GET {apis|applications}/{id}/logs/{logId}?timestamp=`. */
export const useLog = (scope: LogsScope, logId: string, timestamp: number | undefined) =>
  useQuery({
    queryKey: logKeys.detail(scope, logId),
    queryFn: ({ signal }) =>
      http.get<LogDetail>(scopePath(scope, `/logs/${encodeURIComponent(logId)}`), {
        signal,
        timeout: LOGS_TIMEOUT,
        query: { timestamp },
      }),
  });

/** Widest export the server answers in one page. */
export const MAX_EXPORTED_LOGS = 10_000;

/** The file name the server gives in Content-Disposition, else logs-{name}-{timestamp}.csv. */
export function csvFileName(disposition: string | null, name: string, now: number): string {
  const given = /filename="?([^";]+)"?/.exec(disposition ?? '')?.[1];
  return given ?? `logs-${name.replace(/[^\w.-]+/g, '_')}-${now}.csv`;
}

/**
 * `GET {apis|applications}/{id}/logs/export` (30 s timeout): the logs of the timeframe and filters (up to
 * MAX_EXPORTED_LOGS, in the list's order), saved by the browser as logs-{name}-{timestamp}.csv.
 */
export function useExportLogs(scope: LogsScope, name: string) {
  return useMutation({
    mutationFn: async (query: LogsQuery) => {
      const response = await http.request<string>(scopePath(scope, '/logs/export'), {
        timeout: LOGS_TIMEOUT,
        responseType: 'text',
        query: queryParams({ ...query, page: 1, size: MAX_EXPORTED_LOGS }),
      });
      const url = URL.createObjectURL(new Blob([response.data], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = csvFileName(response.headers.get('Content-Disposition'), name, Date.now());
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
  });
}

/** Options of the filters: the API's plans and subscribed applications, or the application's APIs. */
export const useLogFilterOptions = (scope: LogsScope) =>
  useQuery({
    queryKey: [...logKeys.all(scope), 'filter-options'],
    queryFn: async ({ signal }) => {
      const named = (list: { id: string; name: string }[]) =>
        list.map((i) => ({ value: i.id, label: i.name }));
      if (scope.kind === 'api') {
        const [plans, applications] = await Promise.all([
          http
            .get<{ id: string; name: string }[]>(scopePath(scope, '/plans'), { signal, silent: true })
            .catch(() => []),
          http
            .get<{ id: string; name: string }[]>(scopePath(scope, '/subscribers'), { signal, silent: true })
            .catch(() => []),
        ]);
        return { consumers: named(applications), plans: named(plans) };
      }
      const apis = await http
        .get<{ id: string; name: string }[]>(scopePath(scope, '/subscribed'), { signal, silent: true })
        .catch(() => []);
      return { consumers: named(apis), plans: [] };
    },
    staleTime: 60_000,
  });
