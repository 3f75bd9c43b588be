import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { ratingRightsQueryOptions } from '../../../shared/session/rating-rights';

/** An answer to a rating (portal-and-platform.md 3, Rating). */
export interface RatingAnswer {
  id: string;
  comment: string;
  userDisplayName: string;
  createdAt: number;
}

export interface Rating {
  id: string;
  user: string;
  rate: number;
  title: string | null;
  comment: string | null;
  userDisplayName: string;
  createdAt: number;
  updatedAt: number;
  /** Absent without api-rating_answer-r. */
  answers?: RatingAnswer[];
}

export interface RatingPage {
  content: Rating[];
  pageNumber: number;
  totalElements: number;
}

export interface RatingSummary {
  averageRate: number | null;
  numberOfRatings: number;
  numberOfRatingsByRate: Record<string, number>;
}

export interface RatingInput {
  rate: number;
  title: string;
  comment: string;
}

/** Ratings page size and stars (portal-and-platform.md 9). */
export const RATINGS_PAGE_SIZE = 10;
export const STARS = 5;

const base = (apiId: string) => `apis/${encodeURIComponent(apiId)}/ratings`;

export const ratingKeys = {
  all: (apiId: string) => ['portal', 'apis', apiId, 'ratings'] as const,
  page: (apiId: string, page: number) => [...ratingKeys.all(apiId), 'page', page] as const,
  summary: (apiId: string) => [...ratingKeys.all(apiId), 'summary'] as const,
  current: (apiId: string) => [...ratingKeys.all(apiId), 'current'] as const,
  rights: (apiId: string) => ratingRightsQueryOptions(apiId).queryKey,
};

export const useRatings = (apiId: string, page: number) =>
  useQuery({
    queryKey: ratingKeys.page(apiId, page),
    queryFn: ({ signal }) =>
      http.get<RatingPage>(`${base(apiId)}?pageSize=${RATINGS_PAGE_SIZE}&pageNumber=${page}`, { signal }),
  });

export const useRatingSummary = (apiId: string) =>
  useQuery({
    queryKey: ratingKeys.summary(apiId),
    queryFn: ({ signal }) => http.get<RatingSummary>(`${base(apiId)}/summary`, { signal }),
  });

/** The signed-in user's own rating (null when none). */
export const useCurrentRating = (apiId: string, enabled: boolean) =>
  useQuery({
    queryKey: ratingKeys.current(apiId),
    enabled,
    queryFn: async ({ signal }) =>
      (await http.get<Rating | undefined>(`${base(apiId)}/current`, { signal })) ?? null,
  });

/** What the signed-in user may do: `{ RATING: "CRU", RATING_ANSWER: "R" }`. */
export const useRatingRights = (apiId: string, enabled: boolean) =>
  useQuery({ ...ratingRightsQueryOptions(apiId), enabled });

/** Every call below refreshes the ratings, the summary and the API (its header shows the average). */
function useRefresh(apiId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ratingKeys.all(apiId) }),
      queryClient.invalidateQueries({ queryKey: ['portal', 'apis', apiId], exact: true }),
    ]);
}

/** Creates the user's rating, or updates it when there is one (portal-and-platform.md 4, Rating). */
export function useSaveRating(apiId: string) {
  const refresh = useRefresh(apiId);
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: RatingInput }) =>
      id
        ? http.put<Rating>(`${base(apiId)}/${encodeURIComponent(id)}`, input)
        : http.post<Rating>(base(apiId), input),
    onSettled: refresh,
  });
}

export function useDeleteRating(apiId: string) {
  const refresh = useRefresh(apiId);
  return useMutation({
    mutationFn: (id: string) => http.delete(`${base(apiId)}/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}

export function useAnswerRating(apiId: string) {
  const refresh = useRefresh(apiId);
  return useMutation({
    mutationFn: ({ ratingId, comment }: { ratingId: string; comment: string }) =>
      http.post<Rating>(`${base(apiId)}/${encodeURIComponent(ratingId)}/answers`, { comment }),
    onSuccess: refresh,
  });
}

export function useDeleteAnswer(apiId: string) {
  const refresh = useRefresh(apiId);
  return useMutation({
    mutationFn: ({ ratingId, answerId }: { ratingId: string; answerId: string }) =>
      http.delete(`${base(apiId)}/${encodeURIComponent(ratingId)}/answers/${encodeURIComponent(answerId)}`),
    onSuccess: refresh,
  });
}
