import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { subscriptionKeys } from './subscription-keys';
import type { ApiKey } from './types';

/** Whose keys: a subscription seen from its API, or from its application (other paths and permissions). */
export type KeyOwner = { side: 'api'; apiId: string } | { side: 'application'; applicationId: string };

const subscriptionPath = (owner: KeyOwner, id: string) =>
  owner.side === 'api'
    ? `apis/${encodeURIComponent(owner.apiId)}/subscriptions/${encodeURIComponent(id)}`
    : `applications/${encodeURIComponent(owner.applicationId)}/subscriptions/${encodeURIComponent(id)}`;

const keysKey = (owner: KeyOwner, id: string) =>
  owner.side === 'api'
    ? subscriptionKeys.apiKeys(owner.apiId, id)
    : subscriptionKeys.applicationKeys(owner.applicationId, id);

/** `GET .../subscriptions/{subId}/keys`: newest first. */
export const useApiKeys = (owner: KeyOwner, subscriptionId: string, enabled = true) =>
  useQuery({
    queryKey: keysKey(owner, subscriptionId),
    queryFn: ({ signal }) =>
      http.get<ApiKey[]>(`${subscriptionPath(owner, subscriptionId)}/keys`, { signal }),
    enabled,
  });

function useKeyMutation<V, R>(owner: KeyOwner, subscriptionId: string, run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keysKey(owner, subscriptionId) });
      // The same keys seen from the other side.
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey.includes('keys') && query.queryKey.includes(subscriptionId),
      });
    },
  });
}

/** `POST .../subscriptions/{subId}`: a new key; the previous one keeps working 2 hours. */
export const useRenewApiKey = (owner: KeyOwner, subscriptionId: string) =>
  useKeyMutation(owner, subscriptionId, () => http.post<ApiKey>(subscriptionPath(owner, subscriptionId)));

/** `DELETE apis/{id}/keys/{key}` (or the application's `.../subscriptions/{subId}/keys/{key}`): at once. */
export const useRevokeApiKey = (owner: KeyOwner, subscriptionId: string) =>
  useKeyMutation(owner, subscriptionId, (key: string) =>
    http.delete(
      owner.side === 'api'
        ? `apis/${encodeURIComponent(owner.apiId)}/keys/${encodeURIComponent(key)}`
        : `${subscriptionPath(owner, subscriptionId)}/keys/${encodeURIComponent(key)}`,
    ),
  );

/** `PUT apis/{id}/keys/{key}`: the date the key stops working (API side only). */
export const useExpireApiKey = (apiId: string, subscriptionId: string) =>
  useKeyMutation({ side: 'api', apiId }, subscriptionId, (input: { key: string; expire_at: number }) =>
    http.put<ApiKey>(`apis/${encodeURIComponent(apiId)}/keys/${encodeURIComponent(input.key)}`, {
      expire_at: input.expire_at,
    }),
  );
