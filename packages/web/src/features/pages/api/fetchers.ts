import { useQuery } from '@tanstack/react-query';
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
