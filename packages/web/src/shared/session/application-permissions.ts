import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http';

/**
 * `GET applications/{id}/members/permissions` answers `{ "DEFINITION": "CRUD", "SUBSCRIPTION": "R" }`:
 * the current user's rights on one application, kept lowercase: `application-definition-u`.
 */
export function toApplicationPermissions(letters: Record<string, string>): string[] {
  return Object.entries(letters).flatMap(([permission, rights]) =>
    [...rights].map((right) => `application-${permission.toLowerCase()}-${right.toLowerCase()}`),
  );
}

/** Loaded on entering an application; the key sits under the application's own. */
export const applicationPermissionsQueryOptions = (applicationId: string) =>
  queryOptions({
    queryKey: ['applications', applicationId, 'permissions'] as const,
    queryFn: async ({ signal }) =>
      toApplicationPermissions(
        await http.get<Record<string, string>>(
          `applications/${encodeURIComponent(applicationId)}/members/permissions`,
          { signal },
        ),
      ),
    staleTime: 60_000,
  });

/** The current user's rights on an application: `has('application-definition-u')`. */
export function useApplicationPermissions(applicationId: string) {
  const query = useQuery(applicationPermissionsQueryOptions(applicationId));
  const granted = new Set(query.data ?? []);
  return {
    isPending: query.isPending,
    has: (permission: string) => granted.has(permission.toLowerCase()),
    hasAny: (permissions: readonly string[]) =>
      permissions.length === 0 || permissions.some((p) => granted.has(p.toLowerCase())),
  };
}
