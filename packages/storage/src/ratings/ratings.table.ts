import type { Insertable, Selectable, Updateable } from 'kysely';

/** A user's rating of an API: one per user and API. */
export interface RatingTable {
  id: string;
  api_id: string;
  user_id: string;
  /** 1 to 5 stars. */
  rate: number;
  title: string | null;
  comment: string | null;
  created_at: number;
  updated_at: number;
}
export type RatingRow = Selectable<RatingTable>;
export type NewRatingRow = Insertable<RatingTable>;
export type RatingChanges = Updateable<RatingTable>;

/** An answer to a rating (by the API's team, or anybody allowed to answer). */
export interface RatingAnswerTable {
  id: string;
  rating_id: string;
  user_id: string;
  comment: string;
  created_at: number;
}
export type RatingAnswerRow = Selectable<RatingAnswerTable>;
export type NewRatingAnswerRow = Insertable<RatingAnswerTable>;
