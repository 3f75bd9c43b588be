import { QueryClient } from '@tanstack/react-query';
import { isHttpError } from '../http/http-error';

/** The query cache of the app. Failed calls are not retried when the server answered (the catalogue told the user). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => !(isHttpError(error) && error.status > 0) && failureCount < 1,
    },
    mutations: { retry: false },
  },
});
