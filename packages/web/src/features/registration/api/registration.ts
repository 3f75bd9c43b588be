import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/http';

export interface NewAccount {
  firstname: string;
  lastname: string;
  email: string;
}

/** POST users/registration: the server mails a link to finish the account. Errors show on the page. */
export function useRegister() {
  return useMutation({
    mutationFn: (account: NewAccount) => http.post('users/registration', account, { silent: true }),
  });
}

/** POST users/registration/finalize: chooses the password of a registration link's account. */
export function useFinalizeRegistration() {
  return useMutation({
    mutationFn: (input: { token: string; password: string; firstname: string; lastname: string }) =>
      http.post('users/registration/finalize', input, { silent: true }),
  });
}
