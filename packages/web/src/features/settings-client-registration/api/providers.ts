import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientRegistrationProviderInput, ClientRegistrationProviderJson } from '@portico/model';
import { http } from '../../../shared/http';

const BASE = 'configuration/applications/registration/providers';

export const clientRegistrationKeys = {
  all: ['configuration', 'client-registration-providers'] as const,
  detail: (id: string) => [...clientRegistrationKeys.all, id] as const,
  portal: ['portal'] as const,
};

/** `GET configuration/applications/registration/providers`. */
export const useClientRegistrationProviders = () =>
  useQuery({
    queryKey: clientRegistrationKeys.all,
    queryFn: ({ signal }) => http.get<ClientRegistrationProviderJson[]>(BASE, { signal }),
  });

/** `GET configuration/applications/registration/providers/{id}`. */
export const useClientRegistrationProvider = (id: string | undefined) =>
  useQuery({
    queryKey: clientRegistrationKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      http.get<ClientRegistrationProviderJson>(`${BASE}/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
  });

/** POST (create) or PUT (update) a provider. */
export function useSaveClientRegistrationProvider(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ClientRegistrationProviderInput) =>
      id
        ? http.put<ClientRegistrationProviderJson>(`${BASE}/${encodeURIComponent(id)}`, input)
        : http.post<ClientRegistrationProviderJson>(BASE, input),
    onSuccess: (saved) => {
      queryClient.setQueryData(clientRegistrationKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: clientRegistrationKeys.all, exact: true });
    },
  });
}

export function useDeleteClientRegistrationProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.delete(`${BASE}/${encodeURIComponent(id)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: clientRegistrationKeys.all }),
  });
}

interface PortalSettings {
  application?: { registration?: { enabled?: boolean } };
}

/** The registration flag (`application.registration.enabled` of GET portal). */
export const useRegistrationFlag = () =>
  useQuery({
    queryKey: clientRegistrationKeys.portal,
    queryFn: ({ signal }) => http.get<PortalSettings>('portal', { signal }),
    select: (settings) => settings.application?.registration?.enabled === true,
  });

/** Saves `application.registration.enabled` only, and reads the settings back. */
export function useSaveRegistrationFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      http.post<PortalSettings>('portal', { application: { registration: { enabled } } }),
    onSuccess: (settings) => queryClient.setQueryData(clientRegistrationKeys.portal, settings),
  });
}
