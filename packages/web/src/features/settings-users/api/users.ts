import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Page } from '../../../shared/lib/paging';

/** Users listed 10 per page. */
export const USERS_PAGE_SIZE = 10;
/** The built-in user store: only its users have a password to reset. */
export const PORTICO_SOURCE = 'portico';

export interface User {
  id: string;
  username: string;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  displayName: string;
  source: string;
  status: string;
  created_at: number;
  lastConnectionAt: number | null;
  primary_owner: boolean;
  roles?: { scope: string; name: string }[];
}

export interface UserGroup {
  id: string;
  name: string;
  roles: Record<string, string>;
}

export interface UserMemberships {
  memberships: { reference: string; type: string; roles: Record<string, string>; source: string }[];
  metadata: Record<string, Record<string, string>>;
}

export interface PlatformRole {
  name: string;
  default: boolean;
  system: boolean;
}

export const userAdminKeys = {
  all: ['settings-users'] as const,
  list: (q: string, page: number) => [...userAdminKeys.all, 'list', q, page] as const,
  entity: (id: string) => [...userAdminKeys.all, id] as const,
  groups: (id: string) => [...userAdminKeys.all, id, 'groups'] as const,
  memberships: (id: string, type: string) => [...userAdminKeys.all, id, 'memberships', type] as const,
};

const userPath = (id: string, rest = '') => `users/${encodeURIComponent(id)}${rest}`;

/** `GET users?q&page&size`. */
export const useUsers = (q: string, page: number) =>
  useQuery({
    queryKey: userAdminKeys.list(q, page),
    queryFn: ({ signal }) =>
      http.get<Page<User>>('users', { query: { q: q || undefined, page, size: USERS_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

/** `GET users/{id}`, with the user's roles. */
export const useUser = (id: string) =>
  useQuery({
    queryKey: userAdminKeys.entity(id),
    queryFn: ({ signal }) => http.get<User>(userPath(id), { signal }),
  });

export const useUserGroups = (id: string) =>
  useQuery({
    queryKey: userAdminKeys.groups(id),
    queryFn: ({ signal }) => http.get<UserGroup[]>(userPath(id, '/groups'), { signal }),
  });

export const useUserMemberships = (id: string, type: 'api' | 'application') =>
  useQuery({
    queryKey: userAdminKeys.memberships(id, type),
    queryFn: ({ signal }) =>
      http.get<UserMemberships>(userPath(id, '/memberships'), { query: { type }, signal }),
  });

/** `GET configuration/rolescopes/{scope}/roles`: the roles a user may be given. */
export const usePlatformRoles = (scope: 'MANAGEMENT' | 'PORTAL') =>
  useQuery({
    queryKey: ['roles', scope] as const,
    queryFn: ({ signal }) => http.get<PlatformRole[]>(`configuration/rolescopes/${scope}/roles`, { signal }),
  });

/** `POST users`: only the email is needed; the user gets a mail to choose a password. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; firstname?: string; lastname?: string }) =>
      http.post<User>('users', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userAdminKeys.all }),
  });
}

/** `DELETE users/{id}`. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.delete(userPath(id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userAdminKeys.all }),
  });
}

/** `POST users/{id}/resetPassword`: mails the user a link to choose a new password. */
export const useResetPassword = () =>
  useMutation({ mutationFn: (id: string) => http.post(userPath(id, '/resetPassword')) });

/** `POST configuration/rolescopes/{scope}/roles/{role}/users`: the user's one role of that scope. */
export function useChangeUserRole(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scope, role }: { scope: 'MANAGEMENT' | 'PORTAL'; role: string }) =>
      http.post(`configuration/rolescopes/${scope}/roles/${encodeURIComponent(role)}/users`, {
        id,
        reference: id,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userAdminKeys.entity(id), exact: true });
      void queryClient.invalidateQueries({ queryKey: ['roles'] });
    },
  });
}
