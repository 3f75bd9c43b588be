import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { DocPage, PageSource } from './pages';
import { docsBase, pageKeys } from './pages';

export interface Fetcher {
  id: string;
  name: string;
  description: string;
  /** The configuration's JSON schema, as a string. */
  schema?: string;
}

/**
 * `GET fetchers?expand=schema`: the external sources a page can be fetched from (`import=true`: those
 * that can list a folder's files, for an import).
 */
export const useFetchers = (importing = false) =>
  useQuery({
    queryKey: ['fetchers', 'schema', importing],
    queryFn: ({ signal }) =>
      http.get<Fetcher[]>('fetchers', {
        query: { expand: 'schema', ...(importing ? { import: 'true' } : {}) },
        signal,
      }),
    staleTime: Infinity,
  });

const pagesPath = (ref: string) => `${docsBase(ref)}/pages`;

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
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pageKeys.all(apiId) }),
  });
}

/**
 * `POST apis/{id}/pages/_import` (30 s): a page per Markdown or OpenAPI file of the source, a folder per
 * sub-folder; type ROOT keeps the import on the documentation's root page (its tree under it).
 */
export function useImportPages(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { source: PageSource; published: boolean; type?: 'ROOT' }) =>
      http.post<DocPage[]>(`${pagesPath(apiId)}/_import`, input, { timeout: 30_000 }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pageKeys.all(apiId) }),
  });
}
