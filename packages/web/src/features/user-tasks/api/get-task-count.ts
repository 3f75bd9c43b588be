import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Page } from '../../../shared/lib/paging';
import { usePollingInterval } from '../../../shared/lib/use-polling';
import { userKeys } from '../../../shared/session/current-user';

/** `GET user/tasks` (silent, paged): only the count is needed by the shell. */
export const taskCountQueryOptions = () =>
  queryOptions({
    queryKey: [...userKeys.tasks(), 'count'] as const,
    queryFn: async ({ signal }) =>
      (await http.get<Page<unknown>>('user/tasks', { query: { page: 1, size: 1 }, silent: true, signal }))
        .page.total_elements,
  });

/** The signed-in user's task count, refreshed every `scheduler.tasks` seconds while the window has focus. */
export function useTaskCount(enabled: boolean): number {
  const { interval, active } = usePollingInterval('tasks');
  const query = useQuery({
    ...taskCountQueryOptions(),
    enabled,
    refetchInterval: active ? interval : false,
    refetchIntervalInBackground: false,
    staleTime: 0,
  });
  return query.data ?? 0;
}
