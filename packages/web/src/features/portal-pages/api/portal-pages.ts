import { useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { DocPage } from '../../pages/api/pages';

export type { DocPage };

/** Whose documentation: one API's (`apis/{id}/pages`) or the portal's (`portal/pages`). */
export type DocScope = { apiId: string } | { portal: true };

const base = (scope: DocScope) =>
  'apiId' in scope ? `apis/${encodeURIComponent(scope.apiId)}/pages` : 'portal/pages';
const scopeKey = (scope: DocScope) => ('apiId' in scope ? scope.apiId : '~portal');

export const portalPageKeys = {
  all: (scope: DocScope) => ['portal-pages', scopeKey(scope)] as const,
  list: (scope: DocScope, filter: string) => [...portalPageKeys.all(scope), 'list', filter] as const,
  page: (scope: DocScope, pageId: string) => [...portalPageKeys.all(scope), 'page', pageId] as const,
};

const listOf = (scope: DocScope, query: Record<string, string>, silent = false) => ({
  queryKey: portalPageKeys.list(scope, new URLSearchParams(query).toString()),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    http.get<DocPage[]>(base(scope), { signal, query, silent }),
});

/** The published pages of the documentation tree (the homepage is shown on its own, not in the tree). */
export const useDocPages = (scope: DocScope) =>
  useQuery(listOf(scope, { published: 'true', homepage: 'false' }));

/** The homepage page of the scope, if any (silent: the page around it stands without it). */
export const useHomepage = (scope: DocScope) =>
  useQuery({
    ...listOf(scope, { homepage: 'true', published: 'true' }, true),
    select: (pages: DocPage[]) => pages.find((p) => p.type !== 'FOLDER' && p.type !== 'ROOT') ?? null,
  });

/** `GET {pages}/{pageId}?portal=true`: one page (403 and 404 are the screen's to show). */
export const useDocPage = (scope: DocScope, pageId: string | undefined) =>
  useQuery({
    queryKey: portalPageKeys.page(scope, pageId ?? ''),
    queryFn: ({ signal }) =>
      http.get<DocPage>(`${base(scope)}/${encodeURIComponent(pageId!)}`, {
        signal,
        query: { portal: 'true' },
        handles: [401, 403, 404],
      }),
    enabled: !!pageId,
    retry: false,
  });
