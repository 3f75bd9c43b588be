import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Page } from '../../../shared/lib/paging';
import { csv, subscriptionChanged } from './api-subscriptions';
import { subscriptionKeys } from './subscription-keys';
import type { Subscription, SubscriptionFilters, SubscriptionItem } from './types';

const base = (applicationId: string) => `applications/${encodeURIComponent(applicationId)}`;

/** `GET applications/{id}/subscriptions?page&size&status&api`. */
export const useApplicationSubscriptions = (applicationId: string, filters: SubscriptionFilters) =>
  useQuery({
    queryKey: subscriptionKeys.applicationList(applicationId, filters),
    queryFn: ({ signal }) =>
      http.get<Page<SubscriptionItem>>(`${base(applicationId)}/subscriptions`, {
        query: { page: filters.page, size: filters.size, status: csv(filters.status), api: csv(filters.api) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** `GET applications/{id}/subscribed`: the APIs with a live subscription (the API filter). */
export const useSubscribedApis = (applicationId: string) =>
  useQuery({
    queryKey: subscriptionKeys.subscribedApis(applicationId),
    queryFn: ({ signal }) =>
      http.get<{ id: string; name: string; version: string }[]>(`${base(applicationId)}/subscribed`, {
        signal,
      }),
  });

/** `GET applications/{id}/subscriptions/{subId}`. */
export const useApplicationSubscription = (applicationId: string, id: string) =>
  useQuery({
    queryKey: subscriptionKeys.applicationDetail(applicationId, id),
    queryFn: ({ signal }) =>
      http.get<Subscription>(`${base(applicationId)}/subscriptions/${encodeURIComponent(id)}`, { signal }),
  });

/** `DELETE applications/{id}/subscriptions/{subId}`: closes it (its keys are revoked); answers it. */
export function useCloseApplicationSubscription(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      http.delete<Subscription>(`${base(applicationId)}/subscriptions/${encodeURIComponent(id)}`),
    onSuccess: (subscription) => {
      queryClient.setQueryData(
        subscriptionKeys.applicationDetail(applicationId, subscription.id),
        subscription,
      );
      subscriptionChanged(queryClient, subscription);
    },
  });
}
