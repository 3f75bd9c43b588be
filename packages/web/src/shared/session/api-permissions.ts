import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http';

/**
 * `GET apis/{id}/members/permissions` answers `{ "DEFINITION": "CRUD", "MEMBER": "R" }`: the current
 * user's rights on one API. They are kept lowercase, one string per right: `api-definition-u`.
 */
export function toApiPermissions(letters: Record<string, string>): string[] {
  return Object.entries(letters).flatMap(([permission, rights]) =>
    [...rights].map((right) => `api-${permission.toLowerCase()}-${right.toLowerCase()}`),
  );
}

/** Loaded on entering an API; the key sits under the API's own (`['apis', id]`). */
export const apiPermissionsQueryOptions = (apiId: string) =>
  queryOptions({
    queryKey: ['apis', apiId, 'permissions'] as const,
    queryFn: async ({ signal }) =>
      toApiPermissions(
        await http.get<Record<string, string>>(`apis/${encodeURIComponent(apiId)}/members/permissions`, {
          signal,
        }),
      ),
    staleTime: 60_000,
  });

/** The current user's rights on an API: `has('api-definition-u')`. */
export function useApiPermissions(apiId: string) {
  const query = useQuery(apiPermissionsQueryOptions(apiId));
  const granted = new Set(query.data ?? []);
  return {
    isPending: query.isPending,
    permissions: granted,
    has: (permission: string) => granted.has(permission.toLowerCase()),
    hasAny: (permissions: readonly string[]) =>
      permissions.length === 0 || permissions.some((p) => granted.has(p.toLowerCase())),
  };
}
