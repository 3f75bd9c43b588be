import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { analyticsTimeout, http } from '../../../shared/http';
import { useConfig } from '../../../shared/config/config-context';

/** Where the dashboard's requests come from. */
export type AnalyticsScope =
  { kind: 'api'; id: string } | { kind: 'application'; id: string } | { kind: 'platform' };

export const analyticsPath = (scope: AnalyticsScope) =>
  scope.kind === 'platform'
    ? 'platform/analytics'
    : `${scope.kind === 'api' ? 'apis' : 'applications'}/${encodeURIComponent(scope.id)}/analytics`;

export type Metadata = Record<string, Record<string, string>>;

/** `type=group_by`: hits (or the ordered metric) by key, with names of APIs, applications, plans. */
export interface GroupByAnswer {
  values: Record<string, number>;
  metadata: Metadata;
}

/** `type=date_histo`: series per aggregation over buckets from `timestamp.from` every `interval`. */
export interface HistogramAnswer {
  timestamp: { from: number; to: number; interval: number };
  values: { name: string; field: string; buckets: { name: string; data: number[] }[]; metadata?: Metadata }[];
}

/** `type=stats`. */
export interface StatsAnswer {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number | null;
  rps: number;
  rpm: number;
  rph: number;
}

export type AnalyticsParams = Record<string, string | number | undefined> & {
  type: 'count' | 'group_by' | 'date_histo' | 'stats';
  from: number;
  to: number;
};

/** One widget's analytics call; the client timeout comes from the configuration. */
export function useAnalytics<T>(scope: AnalyticsScope, params: AnalyticsParams) {
  const config = useConfig();
  return useQuery({
    queryKey: ['analytics', analyticsPath(scope), params],
    queryFn: ({ signal }) =>
      http.get<T>(analyticsPath(scope), {
        signal,
        query: params,
        timeout: analyticsTimeout(config.analytics?.clientTimeout),
      }),
    placeholderData: keepPreviousData,
  });
}

export interface PlatformEvent {
  id: string;
  type: string;
  created_at: number;
  properties: Record<string, string>;
  user: string | null;
}

export interface EventPage {
  content: PlatformEvent[];
  totalElements: number;
}

/** `GET platform/events?type&from&to&page&size` (the platform dashboard's events table). */
export const usePlatformEvents = (query: {
  type: string;
  from: number;
  to: number;
  page: number;
  size: number;
}) =>
  useQuery({
    queryKey: ['platform-events', query],
    queryFn: ({ signal }) => http.get<EventPage>('platform/events', { signal, query }),
    placeholderData: keepPreviousData,
  });
