import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** POST users/{userId}/changePassword with the reset link's token. Errors show on the page. */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({ userId, token, password }: { userId: string; token: string; password: string }) =>
      http.post(`users/${encodeURIComponent(userId)}/changePassword`, { token, password }, { silent: true }),
  });
}
