import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** Scopes shown on the roles screen, in this order; members only for the first two. */
export const ROLE_SCOPES = ['MANAGEMENT', 'PORTAL', 'API', 'APPLICATION'] as const;
export type RoleScope = (typeof ROLE_SCOPES)[number];
export const MEMBER_SCOPES: readonly RoleScope[] = ['MANAGEMENT', 'PORTAL'];
export const RIGHTS = ['C', 'R', 'U', 'D'] as const;
export type Right = (typeof RIGHTS)[number];
/** Role members shown 20 more at a time (console-applications-and-settings.md section 9). */
export const ROLE_MEMBERS_CHUNK = 20;

export const isRoleScope = (value: string | null | undefined): value is RoleScope =>
  (ROLE_SCOPES as readonly string[]).includes(value ?? '');

export interface Role {
  name: string;
  scope: RoleScope;
  description: string | null;
  default: boolean;
  system: boolean;
  permissions: Record<string, Right[]>;
}

export interface RoleInput {
  name: string;
  description: string;
  default: boolean;
  permissions: Record<string, Right[]>;
}

export interface RoleMember {
  id: string;
  reference: string;
  displayName: string;
  username: string;
}

export const roleKeys = {
  all: ['roles'] as const,
  scopes: () => [...roleKeys.all, 'scopes'] as const,
  list: (scope: string) => [...roleKeys.all, scope] as const,
  entity: (scope: string, name: string) => [...roleKeys.all, scope, 'role', name] as const,
  members: (scope: string, name: string) => [...roleKeys.all, scope, 'role', name, 'members'] as const,
};

const scopePath = (scope: string) => `configuration/rolescopes/${encodeURIComponent(scope)}/roles`;
const rolePath = (scope: string, name: string, rest = '') =>
  `${scopePath(scope)}/${encodeURIComponent(name)}${rest}`;

/** `GET configuration/rolescopes`: every scope with its permission names. */
export const useRoleScopes = () =>
  useQuery({
    queryKey: roleKeys.scopes(),
    queryFn: ({ signal }) => http.get<Record<string, string[]>>('configuration/rolescopes', { signal }),
    staleTime: Infinity,
  });

/** `GET configuration/rolescopes/{scope}/roles`. */
export const useRoles = (scope: string) =>
  useQuery({
    queryKey: roleKeys.list(scope),
    queryFn: ({ signal }) => http.get<Role[]>(scopePath(scope), { signal }),
  });

/** `GET configuration/rolescopes/{scope}/roles/{name}`. */
export const useRole = (scope: string, name: string | undefined) =>
  useQuery({
    queryKey: roleKeys.entity(scope, name ?? ''),
    queryFn: ({ signal }) => http.get<Role>(rolePath(scope, name!), { signal }),
    enabled: name !== undefined,
  });

/** `POST` (new) or `PUT` (existing) a role; the scope's list is refreshed (the default may move). */
export function useSaveRole(scope: string, name: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RoleInput) =>
      name === undefined
        ? http.post<Role>(scopePath(scope), input)
        : http.put<Role>(rolePath(scope, name), { ...input, name, scope }),
    onSuccess: (saved) => {
      queryClient.setQueryData(roleKeys.entity(scope, saved.name), saved);
      void queryClient.invalidateQueries({ queryKey: roleKeys.list(scope), exact: true });
    },
  });
}

/** `DELETE configuration/rolescopes/{scope}/roles/{name}`. */
export function useDeleteRole(scope: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => http.delete(rolePath(scope, name)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: roleKeys.list(scope), exact: true }),
  });
}

/** `GET .../roles/{name}/users`: who holds a MANAGEMENT or PORTAL role. */
export const useRoleMembers = (scope: string, name: string) =>
  useQuery({
    queryKey: roleKeys.members(scope, name),
    queryFn: ({ signal }) => http.get<RoleMember[]>(rolePath(scope, name, '/users'), { signal }),
  });

/** `POST .../roles/{name}/users` for each user: gives them the role (their former one of the scope goes). */
export function useAddRoleMembers(scope: string, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (users: { id: string; reference: string }[]) => {
      for (const user of users)
        await http.post(rolePath(scope, name, '/users'), { id: user.id, reference: user.reference });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: roleKeys.list(scope) }),
  });
}

/** `DELETE .../roles/{name}/users/{userId}`: the user gets the scope's default role back. */
export function useRemoveRoleMember(scope: string, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      http.delete(rolePath(scope, name, `/users/${encodeURIComponent(userId)}`)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: roleKeys.members(scope, name) }),
  });
}
