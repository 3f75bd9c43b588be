import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** The server's answer to a wrong current password (400 naming `old_password`). */
export const WRONG_CURRENT_PASSWORD = 'Wrong current password';

/**
 * `POST user/changePassword` with the current password and the new one (204). The session making the
 * call stays open; a wrong current password is a 400 that the catalogue shows, translated.
 */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (input: { oldPassword: string; password: string }) =>
      http.post('user/changePassword', { old_password: input.oldPassword, password: input.password }),
  });
}
