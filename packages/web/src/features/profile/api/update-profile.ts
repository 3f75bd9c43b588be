import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Session } from '../../../shared/session/current-user';
import { userKeys } from '../../../shared/session/current-user';
import type { CurrentUser } from '../../../shared/session/permissions';

export interface ProfileChanges {
  firstname?: string;
  lastname?: string;
  email?: string;
  /** A data URL, or null to remove the picture. */
  picture?: string | null;
}

/**
 * PUT user with the profile's entity tag (If-Match): a stale tag answers 412 and the catalogue offers to
 * refresh. The answer replaces the session's user.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      changes,
      etag,
    }: {
      changes: ProfileChanges;
      etag: string | undefined;
    }): Promise<Session> => {
      const response = await http.request<CurrentUser>('user', {
        method: 'PUT',
        body: changes,
        ifMatch: etag,
      });
      return { user: response.data, etag: response.headers.get('ETag') ?? undefined };
    },
    onSuccess: (session) => queryClient.setQueryData(userKeys.current(), session),
  });
}
