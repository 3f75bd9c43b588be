import { useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';

interface RootPage {
  id: string;
  name: string;
  type: string;
  order: number;
}

/**
 * The portal's published root pages that are not folders, in their order: the footer's links. Apart
 * from the other page calls, so that the portal's first load carries only this one.
 */
export const useRootPortalPages = () =>
  useQuery({
    queryKey: ['portal-pages', 'footer'],
    queryFn: ({ signal }) =>
      http.get<RootPage[]>('portal/pages', {
        signal,
        query: { root: 'true', published: 'true', homepage: 'false' },
        silent: true,
      }),
    select: (pages: RootPage[]) =>
      pages.filter((p) => p.type !== 'FOLDER' && p.type !== 'ROOT').sort((a, b) => a.order - b.order),
    staleTime: 5 * 60_000,
  });
