import { queryOptions } from '@tanstack/react-query';
import { http } from '../http';

/**
 * `GET apis/{id}/ratings/permissions`: the signed-in user's rating rights on one API, as letters:
 * `{ RATING: "CRU", RATING_ANSWER: "R" }`. On a PUBLIC API a user without a role there holds those of
 * the default API role (docs/DESIGN-NOTES.md, who may rate an API).
 */
export type RatingRights = Record<string, string>;

/** Under the API's ratings (`['portal', 'apis', id, 'ratings']`), so that saving a rating refreshes it. */
export const ratingRightsQueryOptions = (apiId: string) =>
  queryOptions({
    queryKey: ['portal', 'apis', apiId, 'ratings', 'rights'] as const,
    queryFn: ({ signal }) =>
      http.get<RatingRights>(`apis/${encodeURIComponent(apiId)}/ratings/permissions`, { signal }),
    staleTime: 60_000,
  });

/**
 * Whether the user may read an API's ratings (api-rating-r, portal-and-platform.md 6): anybody on a
 * PUBLIC API, as the server lets them; on another API only a holder of RATING R.
 */
export function mayReadRatings(api: { visibility: string }, rights: RatingRights | undefined): boolean {
  return api.visibility === 'PUBLIC' || (rights?.RATING ?? '').toUpperCase().includes('R');
}
