import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { HttpResponse } from '../../../shared/http';
import { apiKeys } from './api-keys';
import { apiPath } from './get-api';
import type { Api, ApiWithEtag, DeployedPayload } from './types';

/** `PUT apis/{id}`: the fields to change (absent ones are kept). */
export type ApiChanges = Partial<
  Pick<
    Api,
    | 'name'
    | 'version'
    | 'description'
    | 'visibility'
    | 'labels'
    | 'views'
    | 'groups'
    | 'tags'
    | 'proxy'
    | 'paths'
    | 'properties'
    | 'services'
    | 'resources'
    | 'path_mappings'
    | 'response_templates'
  >
> & { picture?: string | null };

const withEtag = (response: HttpResponse<Api>): ApiWithEtag => ({
  api: response.data,
  etag: response.headers.get('ETag') ?? undefined,
});

/** The answer of a change is the API as it is now: it replaces the cached one; its sync state is asked again. */
function saved(queryClient: QueryClient, id: string, value: ApiWithEtag): void {
  queryClient.setQueryData(apiKeys.entity(id), value);
  void queryClient.invalidateQueries({ queryKey: apiKeys.state(id) });
  void queryClient.invalidateQueries({ queryKey: apiKeys.quality(id) });
  void queryClient.invalidateQueries({ queryKey: apiKeys.lists() });
}

/** The entity tag of the cached API (the latest one this tab knows). */
export const currentEtag = (queryClient: QueryClient, id: string) =>
  queryClient.getQueryData<ApiWithEtag>(apiKeys.entity(id))?.etag;

/** `PUT apis/{id}` with If-Match: a stale tag answers 412 and the catalogue offers Refresh. */
export function useUpdateApi(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ApiChanges) =>
      withEtag(
        await http.request<Api>(apiPath(id), {
          method: 'PUT',
          body: changes,
          ifMatch: currentEtag(queryClient, id),
        }),
      ),
    onSuccess: (value) => saved(queryClient, id, value),
  });
}

/** `POST apis/{id}?action=START|STOP` with If-Match; it answers 204 (as Gravitee 1.x), the API is read again. */
export function useChangeApiState(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: 'START' | 'STOP') => {
      await http.request<void>(apiPath(id), {
        method: 'POST',
        query: { action },
        ifMatch: currentEtag(queryClient, id),
      });
      return withEtag(await http.request<Api>(apiPath(id)));
    },
    onSuccess: (value) => {
      saved(queryClient, id, value);
      void queryClient.invalidateQueries({ queryKey: apiKeys.events(id) });
    },
  });
}

/** `POST apis/{id}/deploy`: the API becomes synchronized. */
export function useDeployApi(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      withEtag(await http.request<Api>(apiPath(id, '/deploy'), { method: 'POST', body: {} })),
    onSuccess: (value) => {
      saved(queryClient, id, value);
      queryClient.setQueryData(apiKeys.state(id), { api_id: id, is_synchronized: true });
      void queryClient.invalidateQueries({ queryKey: apiKeys.events(id) });
    },
  });
}

/**
 * `POST apis/{id}/rollback`: restores the definition, description and visibility of an earlier
 * deployment (its id and deployment date are left out).
 */
export function useRollbackApi(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (payload: DeployedPayload) => {
      const {
        id: _id,
        deployed_at: _deployedAt,
        ...definition
      } = payload.definition as Record<string, unknown> & { id?: string; deployed_at?: number };
      return withEtag(
        await http.request<Api>(apiPath(id, '/rollback'), {
          method: 'POST',
          body: { description: payload.description, visibility: payload.visibility, definition },
          ifMatch: currentEtag(queryClient, id),
        }),
      );
    },
    onSuccess: (value) => saved(queryClient, id, value),
  });
}

/** `DELETE apis/{id}`: only a stopped API without active plans nor subscriptions. */
export function useDeleteApi(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.delete(apiPath(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: apiKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: apiKeys.lists() });
    },
  });
}
