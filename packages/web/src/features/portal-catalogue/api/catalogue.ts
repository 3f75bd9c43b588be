import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** An API of the portal catalogue, as `GET apis` and `POST portal/apis/_search` answer it. */
export interface CatalogueApi {
  id: string;
  name: string;
  version: string;
  description: string | null;
  views: string[];
  labels: string[];
  picture_url: string;
  has_picture: boolean;
  /** While rating is enabled: the average to one decimal (null without ratings) and the count. */
  rate?: number | null;
  numberOfRatings?: number;
}

/** A view of `GET configuration/views` (the hidden ones are left out by the server). */
export interface CatalogueView {
  id: string;
  name: string;
  description: string | null;
  defaultView: boolean;
  highlightApi: string | null;
  picture_url: string | null;
  totalApis: number;
}

/** The API list loads in increments of 20 (portal-and-platform.md 9). */
export const PAGE_INCREMENT = 20;
/** Search fires after a 300 ms pause, only for a text longer than 3 characters. */
export const SEARCH_DELAY = 300;
export const SEARCH_MIN_LENGTH = 4;

/** The id of the view that holds every API. */
export const ALL_VIEW = 'all';
/** The pseudo-view holding search results in the side navigation. */
export const RESULTS_VIEW = 'results';

export const useCatalogueViews = () =>
  useQuery({
    queryKey: ['portal', 'catalogue', 'views'],
    queryFn: ({ signal }) => http.get<CatalogueView[]>('configuration/views', { signal }),
    staleTime: 60_000,
  });

/** `GET apis/?view=` (every visible API for the view `all`). */
export const useViewApis = (view: string | undefined) =>
  useQuery({
    queryKey: ['portal', 'catalogue', 'apis', view ?? ALL_VIEW],
    queryFn: ({ signal }) =>
      http.get<CatalogueApi[]>('apis', {
        signal,
        query: { view: view && view !== ALL_VIEW ? view : undefined },
      }),
    enabled: view !== undefined,
  });

/** `POST portal/apis/_search?q=`: the visible APIs matching every word of the query. */
export const useSearchApis = (q: string | undefined) =>
  useQuery({
    queryKey: ['portal', 'catalogue', 'search', q],
    queryFn: ({ signal }) =>
      http.post<CatalogueApi[]>('portal/apis/_search', undefined, { signal, query: { q } }),
    enabled: q !== undefined && q.length > 0,
    placeholderData: keepPreviousData,
  });

/**
 * The views holding at least one API the caller may see: the server counts, in each view's totalApis,
 * only the APIs the caller may see (a visitor learns nothing of private ones), so the side navigation
 * needs no list of every API.
 */
export const viewsHoldingApis = (views: CatalogueView[]): CatalogueView[] =>
  views.filter((v) => v.totalApis > 0);

export function useVisibleViews() {
  const views = useCatalogueViews();
  return {
    isPending: views.isPending,
    views: views.data ?? [],
    data: viewsHoldingApis(views.data ?? []),
  };
}
