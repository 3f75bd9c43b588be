import { useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Plan } from '../../plans/api/types';

/** `GET apis/{id}` as the portal reads it (portal-and-platform.md 3, API). */
export interface PortalApi {
  id: string;
  name: string;
  version: string;
  description: string | null;
  context_path: string;
  tags: string[];
  views: string[];
  visibility: 'PUBLIC' | 'PRIVATE';
  picture_url: string;
  owner: { id: string; displayName: string } | null;
  /** Present once ratings exist (issue 14). */
  rate?: number;
  numberOfRatings?: number;
}

/** A published plan as the portal shows it. */
export type PortalPlan = Pick<
  Plan,
  'id' | 'name' | 'description' | 'security' | 'validation' | 'characteristics' | 'order' | 'comment_required'
>;

export interface PortalHeader {
  name: string;
  value: string;
}

export interface Entrypoint {
  value: string;
  tags: string[];
}

export interface PortalView {
  id: string;
  name: string;
}

const apiPath = (id: string, rest = '') => `apis/${encodeURIComponent(id)}${rest}`;

/**
 * The API; 401, 403 and 404 are the screen's: a private API the visitor may not see reads as not
 * found, without the catalogue's redirect to login.
 */
export const usePortalApi = (apiId: string, enabled = true) =>
  useQuery({
    queryKey: ['portal', 'apis', apiId],
    enabled,
    queryFn: ({ signal }) => http.get<PortalApi>(apiPath(apiId), { signal, handles: [401, 403, 404] }),
    retry: false,
  });

/** `GET apis/{id}/headers`: the portal headers with their values for this API. */
export const useApiHeaders = (apiId: string) =>
  useQuery({
    queryKey: ['portal', 'apis', apiId, 'headers'],
    queryFn: ({ signal }) => http.get<PortalHeader[]>(apiPath(apiId, '/headers'), { signal, silent: true }),
  });

/** `GET apis/{id}/plans?status=published`, in their order. */
export const usePublishedPlans = (apiId: string) =>
  useQuery({
    queryKey: ['portal', 'apis', apiId, 'plans'],
    queryFn: ({ signal }) =>
      http.get<PortalPlan[]>(apiPath(apiId, '/plans'), { signal, query: { status: 'published' } }),
    select: (plans: PortalPlan[]) => [...plans].sort((a, b) => a.order - b.order),
  });

/** `GET entrypoints`: the configured entrypoints and their sharding tags. */
export const useEntrypoints = () =>
  useQuery({
    queryKey: ['portal', 'entrypoints'],
    queryFn: ({ signal }) => http.get<Entrypoint[]>('entrypoints', { signal, silent: true }),
    staleTime: 5 * 60_000,
  });

/** `GET configuration/views` (only asked when the header shows the API's views). */
export const useViews = (enabled: boolean) =>
  useQuery({
    queryKey: ['portal', 'views'],
    queryFn: ({ signal }) => http.get<PortalView[]>('configuration/views', { signal, silent: true }),
    staleTime: 5 * 60_000,
    enabled,
  });
