import type { RatingAnswerRow, RatingRow, UserRow } from '@portico/storage';

/** How an author is named: first and last name, else their email, else their username. */
export function displayNameOf(user: UserRow | undefined, fallback: string): string {
  if (!user) return fallback;
  if (user.firstname && user.lastname) return `${user.firstname} ${user.lastname}`;
  return user.email ?? user.source_id;
}

export interface RatingAnswerJson {
  id: string;
  user: string;
  userDisplayName: string;
  comment: string;
  createdAt: number;
}

export interface RatingJson {
  id: string;
  api: string;
  user: string;
  userDisplayName: string;
  rate: number;
  title: string | null;
  comment: string | null;
  createdAt: number;
  updatedAt: number;
  /** Absent for callers who may not read answers (api-rating_answer-r). */
  answers?: RatingAnswerJson[];
}

export function toRatingJson(
  row: RatingRow,
  users: Map<string, UserRow>,
  answers: RatingAnswerRow[] | undefined,
): RatingJson {
  return {
    id: row.id,
    api: row.api_id,
    user: row.user_id,
    userDisplayName: displayNameOf(users.get(row.user_id), row.user_id),
    rate: row.rate,
    title: row.title,
    comment: row.comment,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(answers
      ? {
          answers: answers.map((a) => ({
            id: a.id,
            user: a.user_id,
            userDisplayName: displayNameOf(users.get(a.user_id), a.user_id),
            comment: a.comment,
            createdAt: a.created_at,
          })),
        }
      : {}),
  };
}

/** The average of the rates, to one decimal; null without ratings. */
export const averageToOneDecimal = (sum: number, count: number): number | null =>
  count === 0 ? null : Math.round((sum / count) * 10) / 10;
