import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';

export type InstanceState = 'started' | 'stopped';

/** A gateway instance (console-applications-and-settings.md 3, Instance). */
export interface Instance {
  id: string;
  event: string;
  hostname: string;
  ip: string;
  port: string;
  version: string;
  state: InstanceState;
  tags: string[];
  tenant: string | null;
  started_at: number;
  last_heartbeat_at: number;
  stopped_at: number | null;
  operating_system_name: string;
}

export type PluginType = 'policy' | 'service' | 'repository' | 'reporter' | 'resource';

export interface InstanceDetail extends Instance {
  plugins: { id: string; name: string; version: string; type: PluginType }[];
  systemProperties: Record<string, string>;
}

export interface InstancePage {
  content: Instance[];
  totalElements: number;
}

interface Pool {
  used: number;
  max: number;
  peak: number;
}

/** Monitoring data (3, Monitoring data): jvm, cpu, process, thread, gc. */
export interface Monitoring {
  jvm?: {
    timestamp: number;
    uptime_in_millis: number;
    heap_used_in_bytes: number;
    heap_committed_in_bytes: number;
    heap_max_in_bytes: number;
    heap_used_percent: number;
    non_heap_used_in_bytes: number;
    non_heap_committed_in_bytes: number;
    rss_in_bytes?: number;
    pools: { young: Pool; survivor: Pool; old: Pool };
  };
  cpu?: { percent_use: number; load_average: Record<string, number> };
  process?: { open_file_descriptors: number; max_file_descriptors: number };
  thread?: { count: number; peak_count: number };
  gc?: {
    young_collection_count: number;
    young_collection_time_in_millis: number;
    old_collection_count: number;
    old_collection_time_in_millis: number;
  };
}

export const instanceKeys = {
  all: ['instances'] as const,
  list: (query: object) => ['instances', 'list', query] as const,
  detail: (id: string) => ['instances', 'detail', id] as const,
  monitoring: (id: string) => ['instances', 'monitoring', id] as const,
};

export interface InstanceQuery {
  includeStopped: boolean;
  from?: number;
  to?: number;
  page: number;
  size: number;
}

/** `GET instances/` (live mode: page 0, size 100). */
export const useInstances = (query: InstanceQuery) =>
  useQuery({
    queryKey: instanceKeys.list(query),
    queryFn: ({ signal }) => http.get<InstancePage>('instances/', { signal, query: { ...query } }),
    placeholderData: keepPreviousData,
  });

export const useInstance = (id: string) =>
  useQuery({
    queryKey: instanceKeys.detail(id),
    queryFn: ({ signal }) => http.get<InstanceDetail>(`instances/${encodeURIComponent(id)}`, { signal }),
  });

/** Monitoring polling: every 5 seconds (section 9). */
export const MONITORING_POLL_MS = 5000;

/** `GET instances/{id}/monitoring/{instanceEventId}`, polled every 5 s while the instance runs. */
export const useMonitoring = (instance: Instance | undefined) =>
  useQuery({
    queryKey: instanceKeys.monitoring(instance?.id ?? ''),
    queryFn: ({ signal }) =>
      http.get<Monitoring>(
        `instances/${encodeURIComponent(instance!.id)}/monitoring/${encodeURIComponent(instance!.event)}`,
        { signal },
      ),
    enabled: instance?.state === 'started',
    refetchInterval: MONITORING_POLL_MS,
  });
