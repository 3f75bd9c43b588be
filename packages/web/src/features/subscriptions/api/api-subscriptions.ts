import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Page } from '../../../shared/lib/paging';
import { userKeys } from '../../../shared/session/current-user';
import { subscriptionKeys } from './subscription-keys';
import type { ApiPlan, Subscription, SubscriptionFilters, SubscriptionItem } from './types';

const base = (apiId: string) => `apis/${encodeURIComponent(apiId)}`;
const subscriptionPath = (apiId: string, id: string, rest = '') =>
  `${base(apiId)}/subscriptions/${encodeURIComponent(id)}${rest}`;

/** Comma lists of the query (empty lists are left out). */
export const csv = (values: readonly string[] | undefined) => (values?.length ? values.join(',') : undefined);

/** `GET apis/{id}/subscriptions?page&size&status&application&plan`. */
export const useApiSubscriptions = (apiId: string, filters: SubscriptionFilters) =>
  useQuery({
    queryKey: subscriptionKeys.apiList(apiId, filters),
    queryFn: ({ signal }) =>
      http.get<Page<SubscriptionItem>>(`${base(apiId)}/subscriptions`, {
        query: {
          page: filters.page,
          size: filters.size,
          status: csv(filters.status),
          application: csv(filters.application),
          plan: csv(filters.plan),
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** `GET apis/{id}/plans`: the plans to filter on, subscribe or transfer to (the plans screen's own query). */
export const useApiPlans = (apiId: string) =>
  useQuery({
    queryKey: subscriptionKeys.plans(apiId),
    queryFn: ({ signal }) => http.get<ApiPlan[]>(`${base(apiId)}/plans`, { signal }),
  });

/** `GET apis/{id}/subscribers`: applications with a live subscription (the application filter). */
export const useSubscribers = (apiId: string) =>
  useQuery({
    queryKey: subscriptionKeys.subscribers(apiId),
    queryFn: ({ signal }) =>
      http.get<{ id: string; name: string }[]>(`${base(apiId)}/subscribers`, { signal }),
  });

/** `GET apis/{id}/subscriptions/{subId}`. */
export const useApiSubscription = (apiId: string, id: string) =>
  useQuery({
    queryKey: subscriptionKeys.apiDetail(apiId, id),
    queryFn: ({ signal }) => http.get<Subscription>(subscriptionPath(apiId, id), { signal }),
  });

/** A subscription changed: the API's subscriptions, the application's and the tasks are read again. */
export function subscriptionChanged(queryClient: QueryClient, subscription: Subscription): void {
  queryClient.setQueryData(subscriptionKeys.apiDetail(subscription.api.id, subscription.id), subscription);
  void queryClient.invalidateQueries({ queryKey: subscriptionKeys.ofApi(subscription.api.id) });
  void queryClient.invalidateQueries({
    queryKey: subscriptionKeys.ofApplication(subscription.application.id),
  });
  void queryClient.invalidateQueries({ queryKey: userKeys.tasks() });
}

function useSubscriptionMutation<V>(run: (variables: V) => Promise<Subscription>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: (s) => subscriptionChanged(queryClient, s) });
}

/** `POST apis/{id}/subscriptions?plan=&application=` (with the subscriber's message when the plan asks one). */
export const useCreateSubscription = (apiId: string) =>
  useSubscriptionMutation((input: { plan: string; application: string; request?: string }) =>
    http.post<Subscription>(
      `${base(apiId)}/subscriptions`,
      input.request ? { request: input.request } : undefined,
      { query: { plan: input.plan, application: input.application } },
    ),
  );

/** `POST .../_process`: accept (dates, message) or reject (reason) a pending subscription. */
export const useProcessSubscription = (apiId: string) =>
  useSubscriptionMutation(
    (input: {
      id: string;
      accepted: boolean;
      reason?: string;
      starting_at?: number | null;
      ending_at?: number | null;
    }) => {
      const { id, ...body } = input;
      return http.post<Subscription>(subscriptionPath(apiId, id, '/_process'), body);
    },
  );

/** `POST .../status?status=PAUSED|RESUMED|CLOSED` (the keys follow). */
export const useChangeSubscriptionStatus = (apiId: string) =>
  useSubscriptionMutation((input: { id: string; status: 'PAUSED' | 'RESUMED' | 'CLOSED' }) =>
    http.post<Subscription>(subscriptionPath(apiId, input.id, '/status'), undefined, {
      query: { status: input.status },
    }),
  );

/** `POST .../_transfer`: to another published plan of the same security type. */
export const useTransferSubscription = (apiId: string) =>
  useSubscriptionMutation((input: { id: string; plan: string }) =>
    http.post<Subscription>(subscriptionPath(apiId, input.id, '/_transfer'), input),
  );

/** `PUT apis/{id}/subscriptions/{subId}`: the end date (not earlier than now). */
export const useChangeSubscriptionDates = (apiId: string) =>
  useSubscriptionMutation((input: { id: string; starting_at: number | null; ending_at: number | null }) =>
    http.put<Subscription>(subscriptionPath(apiId, input.id), input),
  );
