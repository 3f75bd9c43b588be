import type { SubscriptionFilters } from './types';

/**
 * Query keys of subscriptions and their API keys, under their API (`['apis', id, 'subscriptions']`) or
 * their application (`['applications', id, 'subscriptions']`).
 */
export const subscriptionKeys = {
  ofApi: (apiId: string) => ['apis', apiId, 'subscriptions'] as const,
  apiList: (apiId: string, filters: SubscriptionFilters) =>
    [...subscriptionKeys.ofApi(apiId), 'list', filters] as const,
  apiDetail: (apiId: string, id: string) => [...subscriptionKeys.ofApi(apiId), 'detail', id] as const,
  apiKeys: (apiId: string, id: string) => [...subscriptionKeys.ofApi(apiId), 'keys', id] as const,
  subscribers: (apiId: string) => [...subscriptionKeys.ofApi(apiId), 'subscribers'] as const,
  ofApplication: (applicationId: string) => ['applications', applicationId, 'subscriptions'] as const,
  applicationList: (applicationId: string, filters: SubscriptionFilters) =>
    [...subscriptionKeys.ofApplication(applicationId), 'list', filters] as const,
  applicationDetail: (applicationId: string, id: string) =>
    [...subscriptionKeys.ofApplication(applicationId), 'detail', id] as const,
  applicationKeys: (applicationId: string, id: string) =>
    [...subscriptionKeys.ofApplication(applicationId), 'keys', id] as const,
  subscribedApis: (applicationId: string) =>
    [...subscriptionKeys.ofApplication(applicationId), 'apis'] as const,
  /** The API's plans (the plans feature reads and writes them; here they are only listed). */
  plans: (apiId: string) => ['apis', apiId, 'plans', 'list'] as const,
  /** Applications the user may subscribe (`GET applications?query=`). */
  applications: (query: string) => ['applications', 'list', query] as const,
  tasks: (page: number, size: number) => ['user', 'tasks', { page, size }] as const,
};
