import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

export interface Fetcher {
  id: string;
  name: string;
  description: string;
  /** The configuration's JSON schema, as a string. */
  schema?: string;
}

/** `GET fetchers?expand=schema`: the external sources a page can be fetched from. */
export const useFetchers = () =>
  useQuery({
    queryKey: ['fetchers', 'schema'],
    queryFn: ({ signal }) => http.get<Fetcher[]>('fetchers', { query: { expand: 'schema' }, signal }),
    staleTime: Infinity,
  });

const pagesPath = (apiId: string) => `apis/${encodeURIComponent(apiId)}/pages`;

/** `POST apis/{id}/pages/_fetch` (every page with a source) or `.../{pageId}/_fetch` (one page). */
export function useFetchPages(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pageId?: string) =>
      http.post(
        pageId ? `${pagesPath(apiId)}/${encodeURIComponent(pageId)}/_fetch` : `${pagesPath(apiId)}/_fetch`,
        undefined,
        {
          timeout: 30_000,
        },
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['apis', apiId, 'pages'] }),
  });
}
