import { useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { CatalogueApi } from './catalogue';

/**
 * `GET apis/?top=true`: the portal's top APIs the caller may see, in their order, with their stars. On
 * its own so that the portal home, part of the first load, takes nothing else of the catalogue.
 */
export const useTopApis = () =>
  useQuery({
    queryKey: ['portal', 'catalogue', 'top'],
    queryFn: ({ signal }) => http.get<CatalogueApi[]>('apis', { signal, query: { top: 'true' } }),
    staleTime: 60_000,
  });
