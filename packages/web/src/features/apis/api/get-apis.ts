import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { apiKeys } from './api-keys';
import type { ApiListItem, ApiListOrder, ApiQuality } from './types';

/**
 * `GET apis?order=` or, with words to look for, `POST apis/_search?q=&order=`: the APIs the user sees,
 * of which the console keeps those flagged manageable.
 */
export const apisQueryOptions = (q: string, order: ApiListOrder) =>
  queryOptions({
    queryKey: apiKeys.list(q, order),
    queryFn: async ({ signal }) => {
      const list = q
        ? await http.post<ApiListItem[]>('apis/_search', undefined, { query: { q, order }, signal })
        : await http.get<ApiListItem[]>('apis', { query: { order }, signal });
      return list.filter((api) => api.manageable);
    },
    placeholderData: keepPreviousData,
  });

export const useApis = (q: string, order: ApiListOrder) => useQuery(apisQueryOptions(q, order));

/** `GET apis/{id}/state`: whether the API is as last deployed (silent: a row without it shows nothing). */
export const apiStateQueryOptions = (id: string) =>
  queryOptions({
    queryKey: apiKeys.state(id),
    queryFn: ({ signal }) =>
      http.get<{ api_id: string; is_synchronized: boolean }>(`apis/${encodeURIComponent(id)}/state`, {
        signal,
        silent: true,
      }),
    staleTime: 10_000,
  });

export const useApiState = (id: string, enabled = true) => useQuery({ ...apiStateQueryOptions(id), enabled });

/** `GET apis/{id}/quality`: the score (0 to 1) and the metrics the API passes. */
export const useApiQuality = (id: string, enabled: boolean, silent = false) =>
  useQuery({
    queryKey: apiKeys.quality(id),
    queryFn: ({ signal }) =>
      http.get<ApiQuality>(`apis/${encodeURIComponent(id)}/quality`, { signal, silent }),
    enabled,
  });
