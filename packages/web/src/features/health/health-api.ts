import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../shared/http';

/** Health calls wait up to 30 s (console-apis.md section 9). */
const TIMEOUT = 30_000;
const path = (apiId: string, rest: string) => `apis/${encodeURIComponent(apiId)}/health${rest}`;

/** The windows of the figures, in the spec's order: last minute, hour, day, week, month. */
export const HEALTH_WINDOWS = ['1m', '1h', '1d', '1w', '1M'] as const;
export type HealthWindow = (typeof HEALTH_WINDOWS)[number];

/** `GET apis/{id}/health`: a value per window per endpoint (or gateway); -1 where no check ran. */
export interface ApiMetrics {
  global: Partial<Record<HealthWindow, number>>;
  buckets: Record<string, Record<HealthWindow, number>>;
  metadata: Record<string, Record<string, string>>;
}

export interface HealthLog {
  id: string;
  timestamp: number;
  endpoint: string;
  gateway: string;
  responseTime: number;
  success: boolean;
  available: boolean;
  state: number;
  message: string | null;
  request: { method?: string; uri?: string; headers?: Record<string, unknown>; body?: string | null };
  response: { status?: number; headers?: Record<string, unknown>; body?: string };
}

export interface HealthLogs {
  total: number;
  logs: HealthLog[];
  metadata: Record<string, Record<string, string>>;
}

/** Health log page sizes (section 9): 10 by default. */
export const LOG_PAGE_SIZES = [10, 25, 50, 75, 100];

export const useHealthMetrics = (
  apiId: string,
  type: 'availability' | 'response_time',
  field: 'endpoint' | 'gateway',
  enabled = true,
) =>
  useQuery({
    queryKey: ['apis', apiId, 'health', type, field],
    queryFn: ({ signal }) =>
      http.get<ApiMetrics>(path(apiId, ''), { query: { type, field }, signal, timeout: TIMEOUT }),
    enabled,
    refetchInterval: 10_000,
  });

export const useHealthLogs = (apiId: string, q: { page: number; size: number; transition: boolean }) =>
  useQuery({
    queryKey: ['apis', apiId, 'health', 'logs', q],
    queryFn: ({ signal }) =>
      http.get<HealthLogs>(path(apiId, '/logs'), {
        query: { page: q.page, size: q.size, ...(q.transition ? { transition: 'true' } : {}) },
        signal,
        timeout: TIMEOUT,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

export const useHealthLog = (apiId: string, logId: string) =>
  useQuery({
    queryKey: ['apis', apiId, 'health', 'log', logId],
    queryFn: ({ signal }) =>
      http.get<HealthLog>(path(apiId, `/logs/${encodeURIComponent(logId)}`), { signal, timeout: TIMEOUT }),
  });

/** State names of the spec: 3 UP, 2 TRANSITIONALLY_UP, 1 TRANSITIONALLY_DOWN, 0 DOWN. */
export const STATE_NAMES = ['DOWN', 'TRANSITIONALLY_DOWN', 'TRANSITIONALLY_UP', 'UP'] as const;

/** Availability colouring (section 9): 95+ success, 80-94 warning, 30-79 danger, below 30 fatal. */
export function availabilityClass(value: number): 'success' | 'warning' | 'danger' | 'fatal' {
  if (value >= 95) return 'success';
  if (value >= 80) return 'warning';
  if (value >= 30) return 'danger';
  return 'fatal';
}
