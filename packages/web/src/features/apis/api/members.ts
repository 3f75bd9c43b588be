import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { apiKeys, referenceKeys } from './api-keys';
import { apiPath } from './get-api';
import type { ApiGroup, ApiMember, NamedRef, Role } from './types';

/** `GET apis/{id}/members`: direct members (primary owner first), then those inherited from groups. */
export const useApiMembers = (id: string) =>
  useQuery({
    queryKey: apiKeys.members(id),
    queryFn: ({ signal }) => http.get<ApiMember[]>(apiPath(id, '/members'), { signal }),
  });

/** `GET apis/{id}/groups`: the API's groups with their members holding an API role. */
export const useApiGroups = (id: string, enabled = true) =>
  useQuery({
    queryKey: apiKeys.groups(id),
    queryFn: ({ signal }) => http.get<ApiGroup[]>(apiPath(id, '/groups'), { signal }),
    enabled,
  });

/** `POST apis/{id}/members`: adds a member or changes its role. */
export function useSaveMember(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: { id: string; role: string }) =>
      http.post<ApiMember>(apiPath(id, '/members'), member),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeys.members(id) }),
  });
}

/** `DELETE apis/{id}/members?user=`. */
export function useRemoveMember(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => http.delete(apiPath(id, '/members'), { query: { user: userId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeys.members(id) }),
  });
}

/** `POST apis/{id}/members/transfer_ownership`: a new primary owner, a role for the previous one. */
export function useTransferOwnership(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; role: string }) =>
      http.post(apiPath(id, '/members/transfer_ownership'), input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeys.detail(id) }),
  });
}

/** `GET configuration/rolescopes/API/roles`: the API roles (system roles cannot be given). */
export const useApiRoles = () =>
  useQuery({
    queryKey: referenceKeys.roles('API'),
    queryFn: ({ signal }) => http.get<Role[]>('configuration/rolescopes/API/roles', { signal }),
    staleTime: 5 * 60_000,
  });

/** `GET user/tags`: the sharding tags the user may put on an API. */
export const useUserTags = () =>
  useQuery({
    queryKey: referenceKeys.userTags(),
    queryFn: ({ signal }) => http.get<string[]>('user/tags', { signal }),
    staleTime: 5 * 60_000,
  });

/**
 * `GET configuration/tags` (readers of sharding tags only): every tag with its name, so that the tags
 * the user may not use are shown disabled. Silent: without it only the usable tags are offered.
 */
export const useConfiguredTags = (enabled: boolean) =>
  useQuery({
    queryKey: referenceKeys.tags(),
    queryFn: ({ signal }) => http.get<NamedRef[]>('configuration/tags', { signal, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
    enabled,
  });

/**
 * `GET configuration/views?all=true` and `GET configuration/groups` (the platform settings' calls): what
 * the API can be put in (hidden views too for readers of views; the server ignores `all` for others).
 * Silent: without them the fields keep and show the API's own values.
 */
export const useConfiguredViews = () =>
  useQuery({
    queryKey: referenceKeys.views(),
    queryFn: ({ signal }) =>
      http.get<NamedRef[]>('configuration/views', { query: { all: 'true' }, signal, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useConfiguredGroups = () =>
  useQuery({
    queryKey: referenceKeys.groups(),
    queryFn: ({ signal }) => http.get<NamedRef[]>('configuration/groups', { signal, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });
