import { useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { DocPage } from '../../pages/api/pages';

/*
 * The two page calls of every portal visit (footer links, the home's homepage page), apart from the
 * other page calls so that the portal's first load carries only these; the renderers load lazily, and
 * only when there is a page to show.
 */

const isPage = (page: Pick<DocPage, 'type'>) => page.type !== 'FOLDER' && page.type !== 'ROOT';

/** The portal's published root pages that are not folders, in their order: the footer's links. */
export const useRootPortalPages = () =>
  useQuery({
    queryKey: ['portal-pages', 'footer'],
    queryFn: ({ signal }) =>
      http.get<DocPage[]>('portal/pages', {
        signal,
        query: { root: 'true', published: 'true', homepage: 'false' },
        silent: true,
      }),
    select: (pages: DocPage[]) => pages.filter(isPage).sort((a, b) => a.order - b.order),
    staleTime: 5 * 60_000,
  });

/** The portal's published homepage page, if any (silent: the home stands without it). */
export const usePortalHomepage = () =>
  useQuery({
    queryKey: ['portal-pages', 'homepage'],
    queryFn: ({ signal }) =>
      http.get<DocPage[]>('portal/pages', {
        signal,
        query: { homepage: 'true', published: 'true' },
        silent: true,
      }),
    select: (pages: DocPage[]) => pages.find(isPage) ?? null,
  });
