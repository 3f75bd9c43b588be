import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Application } from '../../applications/api/types';
import type { Plan } from '../../plans/api/types';

/** A published plan as the wizard needs it (portal-and-platform.md 3, Plan). */
export type WizardPlan = Pick<
  Plan,
  | 'id'
  | 'name'
  | 'description'
  | 'security'
  | 'validation'
  | 'characteristics'
  | 'order'
  | 'comment_required'
  | 'comment_message'
>;

/** A subscription as `POST applications/{id}/subscriptions` answers it. */
export interface WizardSubscription {
  id: string;
  status: 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'CLOSED' | 'PAUSED';
  plan: { id: string; name: string; security: Plan['security'] };
  application: { id: string; name: string };
}

export interface WizardKey {
  key: string;
  revoked: boolean;
  expired: boolean;
}

const appPath = (id: string, rest = '') => `applications/${encodeURIComponent(id)}${rest}`;

/** Query keys of the wizard's calls (under the portal's, apart from the console's). */
export const wizardKeys = {
  applications: ['portal', 'subscribe', 'applications'] as const,
  existing: (application: string, plan: string) =>
    ['portal', 'subscribe', 'existing', application, plan] as const,
  keys: (subscription: string) => ['portal', 'subscribe', 'keys', subscription] as const,
};

/** `GET applications/`: the signed-in user's applications, by name. */
export const useMyApplications = () =>
  useQuery({
    queryKey: wizardKeys.applications,
    queryFn: ({ signal }) => http.get<Application[]>('applications', { signal }),
  });

/**
 * The application's pending or accepted subscriptions to the plan (`GET applications/{id}/subscriptions`
 * with the plan and statuses): one means the application may not subscribe to it again.
 */
export const useExistingSubscriptions = (application: string | null, plan: string | null) =>
  useQuery({
    queryKey: wizardKeys.existing(application ?? '', plan ?? ''),
    enabled: !!application && !!plan,
    queryFn: ({ signal }) =>
      http.get<{ data: { id: string; status: string }[] }>(appPath(application!, '/subscriptions'), {
        signal,
        query: { plan: plan!, status: 'ACCEPTED,PENDING', size: 1 },
      }),
    select: (page) => page.data.length > 0,
  });

/** `POST applications/{id}/subscriptions/?plan=` with the optional message to the API's publisher. */
export function useSubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { application: string; plan: string; request: string }) =>
      http.post<WizardSubscription>(
        appPath(input.application, '/subscriptions'),
        { request: input.request.trim() || null },
        { query: { plan: input.plan } },
      ),
    onSuccess: (created) =>
      void queryClient.invalidateQueries({
        queryKey: wizardKeys.existing(created.application.id, created.plan.id),
      }),
  });
}

/** `GET subscriptions/{subId}/keys`: the keys of an accepted subscription, newest first. */
export const useSubscriptionKeys = (subscription: string | null) =>
  useQuery({
    queryKey: wizardKeys.keys(subscription ?? ''),
    enabled: !!subscription,
    queryFn: ({ signal }) =>
      http.get<WizardKey[]>(`subscriptions/${encodeURIComponent(subscription!)}/keys`, { signal }),
  });

/** `POST applications/`: a simple application (name, description, optional client id). */
export function useCreateSimpleApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; description: string; clientId: string }) =>
      http.post<Application>('applications', {
        name: input.name.trim(),
        description: input.description.trim(),
        type: 'SIMPLE',
        settings: { app: { type: null, client_id: input.clientId.trim() || null } },
      }),
    onSuccess: (created) => {
      queryClient.setQueryData<Application[]>(wizardKeys.applications, (list) =>
        [...(list ?? []), created].sort((a, b) => a.name.localeCompare(b.name)),
      );
    },
  });
}
