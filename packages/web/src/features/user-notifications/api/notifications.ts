import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Page } from '../../../shared/lib/paging';
import { usePollingInterval } from '../../../shared/lib/use-polling';
import { userKeys } from '../../../shared/session/current-user';

export interface UserNotification {
  id: string;
  title: string;
  message: string;
  created_at: number;
}

/** How many notifications the menu lists. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.notifications(),
    queryFn: ({ signal }) =>
      http.get<Page<UserNotification>>('user/notifications', {
        query: { page: 1, size: NOTIFICATIONS_PAGE_SIZE },
        silent: true,
        signal,
      }),
  });

/** The user's notifications (newest first), refreshed every `scheduler.notifications` seconds while focused. */
export function useUserNotifications(enabled: boolean) {
  const { interval, active } = usePollingInterval('notifications');
  return useQuery({
    ...notificationsQueryOptions(),
    enabled,
    refetchInterval: active ? interval : false,
    refetchIntervalInBackground: false,
    staleTime: 0,
  });
}

/** DELETE user/notifications/{id}, or every notification when no id is given. */
export function useDeleteNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) =>
      http.delete(id ? `user/notifications/${encodeURIComponent(id)}` : 'user/notifications'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.notifications() }),
  });
}
