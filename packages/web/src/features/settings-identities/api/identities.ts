import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  IdentityProviderJson,
  IdentityProviderListItemJson,
  IdentityProviderUpdate,
  NewIdentityProvider,
} from '@portico/model';
import { http } from '../../../shared/http';

const BASE = 'configuration/identities';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const identityKeys = {
  all: ['configuration', 'identities'] as const,
  detail: (id: string) => [...identityKeys.all, id] as const,
  portal: ['portal'] as const,
  roles: (scope: string) => ['roles', scope] as const,
  groups: ['configuration', 'groups'] as const,
};

export const useIdentityProviderList = () =>
  useQuery({
    queryKey: identityKeys.all,
    queryFn: ({ signal }) => http.get<IdentityProviderListItemJson[]>(BASE, { signal }),
  });

export const useIdentityProvider = (id: string | undefined) =>
  useQuery({
    queryKey: identityKeys.detail(id ?? ''),
    queryFn: ({ signal }) => http.get<IdentityProviderJson>(path(id!), { signal }),
    enabled: !!id,
  });

/** POST (create) or PUT (update) a provider. */
export function useSaveIdentityProvider(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewIdentityProvider | IdentityProviderUpdate) =>
      id ? http.put<IdentityProviderJson>(path(id), input) : http.post<IdentityProviderJson>(BASE, input),
    onSuccess: (saved) => {
      queryClient.setQueryData(identityKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: identityKeys.all, exact: true });
    },
  });
}

export function useDeleteIdentityProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.delete(path(id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: identityKeys.all }),
  });
}

interface PortalSettings {
  authentication?: { forceLogin?: { enabled?: boolean }; localLogin?: { enabled?: boolean } };
}

/** The force-login and show-login-form settings of the portal. */
export const useLoginSettings = () =>
  useQuery({
    queryKey: identityKeys.portal,
    queryFn: ({ signal }) => http.get<PortalSettings>('portal', { signal }),
    select: (s) => ({
      forceLogin: s.authentication?.forceLogin?.enabled === true,
      localLogin: s.authentication?.localLogin?.enabled !== false,
    }),
  });

/** Saves one of them only (a partial payload), and reads the settings back. */
export function useSaveLoginSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, enabled }: { key: 'forceLogin' | 'localLogin'; enabled: boolean }) =>
      http.post<PortalSettings>('portal', { authentication: { [key]: { enabled } } }),
    onSuccess: (settings) => queryClient.setQueryData(identityKeys.portal, settings),
  });
}

/** Role names of a scope, for the role mappings. */
export const useRoleNames = (scope: 'PORTAL' | 'MANAGEMENT') =>
  useQuery({
    queryKey: identityKeys.roles(scope),
    queryFn: ({ signal }) =>
      http.get<{ name: string }[]>(`configuration/rolescopes/${scope}/roles`, { signal }),
    select: (roles) => roles.map((r) => r.name),
  });

/** The groups, for the group mappings (empty when the groups cannot be read). */
export const useGroupOptions = () =>
  useQuery({
    queryKey: identityKeys.groups,
    queryFn: ({ signal }) =>
      http.get<{ id: string; name: string }[]>('configuration/groups', { signal, silent: true }),
    select: (groups) => groups.map((g) => ({ value: g.id, label: g.name })),
    retry: false,
  });
