import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, isHttpError } from '../http';
import type { RequestOptions } from '../http';
import type { CurrentUser } from './permissions';

export interface Session {
  user: CurrentUser;
  /** Entity tag of the profile, for `PUT user` (412 when stale). */
  etag: string | undefined;
}

export const userKeys = {
  all: ['user'] as const,
  current: () => [...userKeys.all, 'current'] as const,
  tasks: () => [...userKeys.all, 'tasks'] as const,
  notifications: () => [...userKeys.all, 'notifications'] as const,
};

/** GET user, with the profile's entity tag. */
export async function fetchSession(options: RequestOptions = {}): Promise<Session> {
  const response = await http.request<CurrentUser>('user', options);
  return { user: response.data, etag: response.headers.get('ETag') ?? undefined };
}

/**
 * GET user: the signed-in user, or null. Silent, and a failure of any kind treats the visitor as
 * unauthenticated (a 401 marks the session as expired, without a message).
 */
export async function getCurrentUser(signal?: AbortSignal): Promise<Session | null> {
  try {
    return await fetchSession({ silent: true, forceSessionExpired: true, signal });
  } catch (error) {
    if (isHttpError(error) && error.reason === 'abort') throw error;
    return null;
  }
}

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.current(),
    queryFn: ({ signal }) => getCurrentUser(signal),
    staleTime: 60_000,
    retry: false,
  });

/** The session: `user` is null for visitors; `isPending` until the first answer. */
export function useSession() {
  const query = useQuery(currentUserQueryOptions());
  return {
    user: query.data?.user ?? null,
    etag: query.data?.etag,
    isPending: query.isPending,
    refetch: query.refetch,
  };
}

/** The signed-in user's avatar; the version (updated_at) makes the browser fetch a changed picture. */
export const ownAvatarUrl = (version: number | undefined) => http.url('user/avatar', { v: version });
