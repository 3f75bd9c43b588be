import type { Executor } from '../database.js';
import type {
  NewRatingAnswerRow,
  NewRatingRow,
  RatingAnswerRow,
  RatingChanges,
  RatingRow,
} from './ratings.table.js';

/** One page of an API's ratings, newest first; `pageNumber` starts at 1. */
export async function findRatingsPage(
  db: Executor,
  apiId: string,
  pageNumber: number,
  pageSize: number,
): Promise<{ rows: RatingRow[]; total: number }> {
  const rows = await db
    .selectFrom('ratings')
    .selectAll()
    .where('api_id', '=', apiId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((pageNumber - 1) * pageSize)
    .execute();
  const count = await db
    .selectFrom('ratings')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('api_id', '=', apiId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.total) };
}

export async function findRatingById(db: Executor, id: string): Promise<RatingRow | undefined> {
  return db.selectFrom('ratings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The rating a user gave an API, if any (there is at most one). */
export async function findRatingOfUser(
  db: Executor,
  apiId: string,
  userId: string,
): Promise<RatingRow | undefined> {
  return db
    .selectFrom('ratings')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function insertRating(db: Executor, row: NewRatingRow): Promise<void> {
  await db.insertInto('ratings').values(row).execute();
}

/** Changes a rating; answers the number of rows changed. */
export async function updateRating(db: Executor, id: string, changes: RatingChanges): Promise<number> {
  const result = await db.updateTable('ratings').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes a rating and its answers; answers the number of ratings deleted. */
export async function deleteRating(db: Executor, id: string): Promise<number> {
  await db.deleteFrom('rating_answers').where('rating_id', '=', id).execute();
  const result = await db.deleteFrom('ratings').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many ratings an API has per rate (only the rates given appear). */
export async function countRatingsByRate(
  db: Executor,
  apiId: string,
): Promise<{ rate: number; count: number }[]> {
  const rows = await db
    .selectFrom('ratings')
    .select(['rate', (eb) => eb.fn.countAll<number>().as('count')])
    .where('api_id', '=', apiId)
    .groupBy('rate')
    .orderBy('rate')
    .execute();
  return rows.map((r) => ({ rate: Number(r.rate), count: Number(r.count) }));
}

/** The number of ratings and the sum of their rates for each of the APIs that have ratings. */
export async function ratingTotalsOfApis(
  db: Executor,
  apiIds: readonly string[],
): Promise<Map<string, { count: number; sum: number }>> {
  const totals = new Map<string, { count: number; sum: number }>();
  if (apiIds.length === 0) return totals;
  const rows = await db
    .selectFrom('ratings')
    .select([
      'api_id',
      (eb) => eb.fn.countAll<number>().as('count'),
      (eb) => eb.fn.sum<number>('rate').as('sum'),
    ])
    .where('api_id', 'in', [...apiIds])
    .groupBy('api_id')
    .execute();
  for (const r of rows) totals.set(r.api_id, { count: Number(r.count), sum: Number(r.sum) });
  return totals;
}

/** The answers of the ratings, oldest first. */
export async function findAnswersOfRatings(
  db: Executor,
  ratingIds: readonly string[],
): Promise<RatingAnswerRow[]> {
  if (ratingIds.length === 0) return [];
  return db
    .selectFrom('rating_answers')
    .selectAll()
    .where('rating_id', 'in', [...ratingIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findRatingAnswerById(db: Executor, id: string): Promise<RatingAnswerRow | undefined> {
  return db.selectFrom('rating_answers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertRatingAnswer(db: Executor, row: NewRatingAnswerRow): Promise<void> {
  await db.insertInto('rating_answers').values(row).execute();
}

export async function deleteRatingAnswer(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('rating_answers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
