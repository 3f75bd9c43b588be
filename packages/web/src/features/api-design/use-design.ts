import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { http, isHttpError } from '../../shared/http';
import type { TranslationKey } from '../../shared/i18n/keys';
import { useApiPermissions } from '../../shared/session/api-permissions';
import type { JsonSchema } from '../../shared/ui/json-schema-form';
import { notifyFailure, notifySuccess } from '../../shared/ui/notify';
import type { ApiChanges } from '../apis/api/change-api';
import { useUpdateApi } from '../apis/api/change-api';
import { apiKeys } from '../apis/api/api-keys';
import { apiPath, useFrameApi } from '../apis/api/get-api';
import type { Api } from '../apis/api/types';

/**
 * The API of the route and the save of its design: `PUT apis/{id}` with the changed parts and If-Match
 * (a stale tag answers 412 and offers Refresh); the answer marks the API out of sync.
 */
export function useApiDesign() {
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const update = useUpdateApi(apiId);
  const save = (changes: ApiChanges, saved: TranslationKey, onSaved?: (api: Api) => void) =>
    update.mutate(changes, {
      onSuccess: (value) => {
        notifySuccess(saved);
        onSaved?.(value.api);
      },
    });
  return {
    apiId,
    api,
    base: `/management/apis/${encodeURIComponent(apiId)}`,
    canUpdate: permissions.has('api-definition-u'),
    saving: update.isPending,
    save,
  };
}

export interface ResourceType {
  id: string;
  name: string;
  description: string;
}

/** `GET resources`: the resource types the gateway knows. */
export const useResourceTypes = () =>
  useQuery({
    queryKey: ['resources', 'types'],
    queryFn: ({ signal }) => http.get<ResourceType[]>('resources', { signal }),
    staleTime: Infinity,
  });

/**
 * `GET resources/{type}/schema`: a 404 means an empty schema (silently); another failure shows
 * 'Unexpected error while loading resource schema for' the type (console-apis.md 8).
 */
export const useResourceSchema = (type: string | null) =>
  useQuery({
    queryKey: ['resources', 'schema', type],
    enabled: !!type,
    staleTime: Infinity,
    queryFn: async ({ signal }): Promise<JsonSchema> => {
      try {
        return await http.get<JsonSchema>(`resources/${encodeURIComponent(type!)}/schema`, {
          signal,
          silent: true,
        });
      } catch (error) {
        if (isHttpError(error) && error.status === 404) return { type: 'object', properties: {} };
        notifyFailure('apiDesign.resources.schemaError', { type: type! });
        throw error;
      }
    },
  });

/** `POST apis/{id}/import-path-mappings?page=`: the answer is the API, with its new entity tag. */
export function useImportPathMappings(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (page: string) => {
      const response = await http.request<Api>(apiPath(apiId, '/import-path-mappings'), {
        method: 'POST',
        query: { page },
      });
      return { api: response.data, etag: response.headers.get('ETag') ?? undefined };
    },
    onSuccess: (value) => {
      queryClient.setQueryData(apiKeys.entity(apiId), value);
      void queryClient.invalidateQueries({ queryKey: apiKeys.state(apiId) });
    },
    // A failure reloads the API (console-apis.md 4: "a failure in a path-mapping update reloads state").
    onError: () => void queryClient.invalidateQueries({ queryKey: apiKeys.entity(apiId) }),
  });
}
