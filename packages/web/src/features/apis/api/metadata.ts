import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { apiKeys } from './api-keys';
import { apiPath } from './get-api';
import type { ApiMetadata, MetadataFormat } from './types';

export interface MetadataInput {
  name: string;
  format: MetadataFormat;
  value: string;
}

/** `GET apis/{id}/metadata`: the API's metadata over the platform defaults. */
export const useApiMetadata = (id: string) =>
  useQuery({
    queryKey: apiKeys.metadata(id),
    queryFn: ({ signal }) => http.get<ApiMetadata[]>(apiPath(id, '/metadata'), { signal }),
  });

/** `POST apis/{id}/metadata` (key undefined) or `PUT apis/{id}/metadata/{key}`. */
export function useSaveMetadata(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, input }: { key: string | undefined; input: MetadataInput }) =>
      key === undefined
        ? http.post<ApiMetadata>(apiPath(id, '/metadata'), input)
        : http.put<ApiMetadata>(apiPath(id, `/metadata/${encodeURIComponent(key)}`), { ...input, key }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeys.metadata(id) }),
  });
}

/** `DELETE apis/{id}/metadata/{key}`: a default value comes back. */
export function useDeleteMetadata(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => http.delete(apiPath(id, `/metadata/${encodeURIComponent(key)}`)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeys.metadata(id) }),
  });
}
