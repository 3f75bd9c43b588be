import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** An audit entry (Audit log: createdAt, user, referenceType, referenceId, event, properties, patch). */
export interface AuditEntry {
  id: string;
  createdAt: number;
  user: string | null;
  referenceType: string;
  referenceId: string;
  event: string;
  properties: Record<string, string>;
  /** A JSON Patch (RFC 6902) of the change, as a string. */
  patch: string | null;
}

export interface AuditPage {
  content: AuditEntry[];
  /** `USER:{id}:name`, `API:{id}:name`, `APPLICATION:{id}:name`. */
  metadata: Record<string, string>;
  pageNumber: number;
  pageElements: number;
  totalElements: number;
}

/** Audit query: page (from 1), event, application, api, mgmt, from, to (epoch milliseconds). */
export interface AuditQuery {
  page: number;
  size: number;
  event?: string | undefined;
  application?: string | undefined;
  api?: string | undefined;
  mgmt?: boolean | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** `GET audit` (platform) or `GET apis/{api}/audit` (one API). */
export const useAudit = (query: AuditQuery, apiId?: string) =>
  useQuery({
    queryKey: ['audit', apiId ?? 'platform', query],
    queryFn: ({ signal }) =>
      http.get<AuditPage>(apiId ? `apis/${encodeURIComponent(apiId)}/audit` : 'audit', {
        signal,
        query: { ...query, mgmt: query.mgmt || undefined },
      }),
    placeholderData: keepPreviousData,
  });

/** `GET audit/events`: the event names of the event filter. */
export const useAuditEvents = () =>
  useQuery({
    queryKey: ['audit', 'events'],
    queryFn: ({ signal }) => http.get<string[]>('audit/events', { signal }),
    staleTime: 60_000,
  });

/** The APIs and applications of the platform audit's filters. */
export const useAuditReferences = (enabled: boolean) =>
  useQuery({
    queryKey: ['audit', 'references'],
    queryFn: async ({ signal }) => {
      const [apis, applications] = await Promise.all([
        http.get<{ id: string; name: string }[]>('apis', { signal }),
        http.get<{ id: string; name: string }[]>('applications', { signal }),
      ]);
      return { apis, applications };
    },
    enabled,
    staleTime: 60_000,
  });
