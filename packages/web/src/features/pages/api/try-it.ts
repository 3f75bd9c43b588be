import { useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** An entrypoint mapping of sharding tags (`GET entrypoints`, the portal's list). */
interface EntrypointMapping {
  id: string;
  value: string;
  tags: string[];
}

/** One API key of the user's applications subscribed to the API. */
export interface TryItKey {
  key: string;
  application: string;
  plan: string;
}

interface Application {
  id: string;
  name: string;
}
interface Subscription {
  id: string;
  plan: string;
  status: string;
}
interface SubscriptionPage {
  data: Subscription[];
  metadata?: Record<string, { name?: string }>;
}
interface ApiKey {
  key: string;
  revoked: boolean;
  expired?: boolean;
}

const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

/**
 * Where an API is called through the gateway: the entrypoint mapped to one of its sharding tags, else
 * the portal's entrypoint (`portal.entrypoint`), followed by the API's context path.
 */
export function apiEntrypoint(
  portalEntrypoint: string,
  mappings: readonly EntrypointMapping[],
  api: { context_path: string; tags: readonly string[] },
): string | undefined {
  const mapped = mappings.find((m) => m.tags.some((tag) => api.tags.includes(tag)));
  const base = mapped?.value || portalEntrypoint;
  return base ? joinUrl(base, api.context_path) : undefined;
}

/** `GET entrypoints` (silent: without it the portal's entrypoint is used). */
export const useEntrypointMappings = () =>
  useQuery({
    queryKey: ['entrypoints', 'portal'],
    queryFn: ({ signal }) => http.get<EntrypointMapping[]>('entrypoints', { signal, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });

/**
 * The API keys the user holds for the API: the keys (not revoked, not expired) of the accepted
 * subscriptions of the user's applications. Silent: try-it still works with a key typed in.
 */
export const useMyApiKeys = (apiId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['apis', apiId, 'try-it-keys'],
    enabled,
    retry: false,
    queryFn: async ({ signal }): Promise<TryItKey[]> => {
      const options = { signal, silent: true } as const;
      const applications = await http.get<Application[]>('applications', options);
      const keys: TryItKey[] = [];
      for (const application of applications) {
        const app = encodeURIComponent(application.id);
        const page = await http.get<SubscriptionPage>(`applications/${app}/subscriptions`, {
          ...options,
          query: { api: apiId, status: 'ACCEPTED' },
        });
        for (const subscription of page.data) {
          const found = await http.get<ApiKey[]>(
            `applications/${app}/subscriptions/${encodeURIComponent(subscription.id)}/keys`,
            options,
          );
          for (const key of found.filter((k) => !k.revoked && !k.expired))
            keys.push({
              key: key.key,
              application: application.name,
              plan: page.metadata?.[subscription.plan]?.name ?? subscription.plan,
            });
        }
      }
      return keys;
    },
  });
