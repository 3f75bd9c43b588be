import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { apiKeys } from './api-keys';
import type { Api, ApiEvent, ApiWithEtag } from './types';

export const apiPath = (id: string, rest = '') => `apis/${encodeURIComponent(id)}${rest}`;

/** `GET apis/{id}` with its entity tag (the ETag header), for the next change's If-Match. */
export const apiQueryOptions = (id: string) =>
  queryOptions({
    queryKey: apiKeys.entity(id),
    queryFn: async ({ signal }): Promise<ApiWithEtag> => {
      const response = await http.request<Api>(apiPath(id), { signal });
      return { api: response.data, etag: response.headers.get('ETag') ?? undefined };
    },
  });

export const useApi = (id: string) => useQuery(apiQueryOptions(id));

/** The API of a page inside the API frame (the frame shows its pages once the API is there). */
export function useFrameApi(id: string): ApiWithEtag {
  const { data } = useQuery(apiQueryOptions(id));
  if (!data) throw new Error(`The API ${id} is not loaded: pages of an API render inside its frame`);
  return data;
}

/** `GET apis/{id}/events`: newest first (`type` narrows to some event types). */
export const useApiEvents = (id: string) =>
  useQuery({
    queryKey: apiKeys.events(id),
    queryFn: ({ signal }) => http.get<ApiEvent[]>(apiPath(id, '/events'), { signal }),
  });
