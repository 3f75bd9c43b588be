import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { applicationKeys } from './application-keys';
import type { Application, ApplicationInput, ApplicationMember, Role } from './types';

export const applicationPath = (id: string, rest = '') => `applications/${encodeURIComponent(id)}${rest}`;

/** `GET applications?query=`: the user's applications (administrators: all), by name. */
export const useApplications = (query: string) =>
  useQuery({
    queryKey: applicationKeys.list(query),
    queryFn: ({ signal }) =>
      http.get<Application[]>('applications', { query: { query: query || undefined }, signal }),
  });

/** `GET applications/{id}`. */
export const useApplication = (id: string) =>
  useQuery({
    queryKey: applicationKeys.entity(id),
    queryFn: ({ signal }) => http.get<Application>(applicationPath(id), { signal }),
  });

/** `POST applications`: the creator becomes its primary owner. */
export function useCreateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApplicationInput) => http.post<Application>('applications', input),
    onSuccess: (created) => {
      queryClient.setQueryData(applicationKeys.entity(created.id), created);
      void queryClient.invalidateQueries({ queryKey: applicationKeys.lists() });
    },
  });
}

/** `PUT applications/{id}`: name, description, groups and settings (the type stays). */
export function useUpdateApplication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<ApplicationInput, 'type'>) => http.put<Application>(applicationPath(id), input),
    onSuccess: (saved) => {
      queryClient.setQueryData(applicationKeys.entity(id), saved);
      void queryClient.invalidateQueries({ queryKey: applicationKeys.lists() });
    },
  });
}

/**
 * `POST applications/{id}/renew_secret`: a new client secret for an OAuth application (from its client
 * registration provider when it has one; the client id may change with it).
 */
export function useRenewApplicationSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<Application>(`${applicationPath(id)}/renew_secret`),
    onSuccess: (saved) => {
      queryClient.setQueryData(applicationKeys.entity(id), saved);
    },
  });
}

/** `DELETE applications/{id}`: its subscriptions close and their keys are revoked. */
export function useDeleteApplication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.delete(applicationPath(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: applicationKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.lists() });
    },
  });
}

/** `GET applications/{id}/members`: direct members (primary owner first), then those of its groups. */
export const useApplicationMembers = (id: string) =>
  useQuery({
    queryKey: applicationKeys.members(id),
    queryFn: ({ signal }) => http.get<ApplicationMember[]>(applicationPath(id, '/members'), { signal }),
  });

/** `POST applications/{id}/members`: adds a member or changes its role. */
export function useSaveApplicationMember(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: { id: string; role: string }) => http.post(applicationPath(id, '/members'), member),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: applicationKeys.members(id) }),
  });
}

/** `DELETE applications/{id}/members?user=` (never the primary owner). */
export function useRemoveApplicationMember(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => http.delete(applicationPath(id, '/members'), { query: { user: userId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: applicationKeys.members(id) }),
  });
}

/** `POST applications/{id}/members/transfer_ownership`: a new primary owner, a role for the previous one. */
export function useTransferApplicationOwnership(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; role: string }) =>
      http.post(applicationPath(id, '/members/transfer_ownership'), input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: applicationKeys.detail(id) }),
  });
}

/** `GET configuration/rolescopes/APPLICATION/roles`. */
export const useApplicationRoles = () =>
  useQuery({
    queryKey: applicationKeys.roles(),
    queryFn: ({ signal }) => http.get<Role[]>('configuration/rolescopes/APPLICATION/roles', { signal }),
    staleTime: 5 * 60_000,
  });

/** `GET configuration/groups` (administrators; silent: without it the groups are shown by id). */
export const useGroups = (enabled: boolean) =>
  useQuery({
    queryKey: applicationKeys.groups(),
    queryFn: ({ signal }) =>
      http.get<{ id: string; name: string }[]>('configuration/groups', { signal, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
    enabled,
  });
