import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { deleteApi, insertApi } from '../apis/apis.repository.js';
import { api, NOW } from '../apis/test-support.js';
import {
  countRatingsByRate,
  deleteRating,
  deleteRatingAnswer,
  findAnswersOfRatings,
  findRatingById,
  findRatingOfUser,
  findRatingsPage,
  insertRating,
  insertRatingAnswer,
  ratingTotalsOfApis,
  updateRating,
} from './ratings.repository.js';

const rating = (id: string, apiId: string, userId: string, rate: number, at = NOW) => ({
  id,
  api_id: apiId,
  user_id: userId,
  rate,
  title: `Title ${id}`,
  comment: `Comment ${id}`,
  created_at: at,
  updated_at: at,
});

const answer = (id: string, ratingId: string, at: number) => ({
  id,
  rating_id: ratingId,
  user_id: 'owner',
  comment: `Answer ${id}`,
  created_at: at,
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: ratings repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('rating_answers').execute();
      await t.storage.db.deleteFrom('ratings').execute();
      await t.storage.db.deleteFrom('apis').execute();
      await insertApi(t.storage.db, api('a1'));
      await insertApi(t.storage.db, api('a2'));
    });

    it('pages the ratings of an API newest first and counts them all', async () => {
      for (let i = 0; i < 12; i++)
        await insertRating(t.storage.db, rating(`r${i}`, 'a1', `u${i}`, 3, NOW + i));
      await insertRating(t.storage.db, rating('other', 'a2', 'u0', 5));

      const first = await findRatingsPage(t.storage.db, 'a1', 1, 10);
      expect(first.total).toBe(12);
      expect(first.rows.map((r) => r.id)).toEqual([
        'r11',
        'r10',
        'r9',
        'r8',
        'r7',
        'r6',
        'r5',
        'r4',
        'r3',
        'r2',
      ]);
      const second = await findRatingsPage(t.storage.db, 'a1', 2, 10);
      expect(second.rows.map((r) => r.id)).toEqual(['r1', 'r0']);
    });

    it('holds one rating per user and API', async () => {
      await insertRating(t.storage.db, rating('r1', 'a1', 'amy', 4));
      await expect(insertRating(t.storage.db, rating('r2', 'a1', 'amy', 2))).rejects.toThrow();
      await insertRating(t.storage.db, rating('r3', 'a2', 'amy', 2));

      expect((await findRatingOfUser(t.storage.db, 'a1', 'amy'))?.id).toBe('r1');
      expect(await findRatingOfUser(t.storage.db, 'a1', 'bob')).toBeUndefined();
    });

    it('counts ratings per rate and totals them per API', async () => {
      await insertRating(t.storage.db, rating('r1', 'a1', 'u1', 5));
      await insertRating(t.storage.db, rating('r2', 'a1', 'u2', 5));
      await insertRating(t.storage.db, rating('r3', 'a1', 'u3', 2));
      await insertRating(t.storage.db, rating('r4', 'a2', 'u1', 1));

      expect(await countRatingsByRate(t.storage.db, 'a1')).toEqual([
        { rate: 2, count: 1 },
        { rate: 5, count: 2 },
      ]);
      const totals = await ratingTotalsOfApis(t.storage.db, ['a1', 'a2', 'none']);
      expect(totals.get('a1')).toEqual({ count: 3, sum: 12 });
      expect(totals.get('a2')).toEqual({ count: 1, sum: 1 });
      expect(totals.has('none')).toBe(false);
    });

    it('updates a rating, and deletes it with its answers', async () => {
      await insertRating(t.storage.db, rating('r1', 'a1', 'u1', 5));
      expect(await updateRating(t.storage.db, 'r1', { rate: 1, title: 'Changed', updated_at: NOW + 5 })).toBe(
        1,
      );
      expect(await findRatingById(t.storage.db, 'r1')).toMatchObject({
        rate: 1,
        title: 'Changed',
        updated_at: NOW + 5,
      });

      await insertRatingAnswer(t.storage.db, answer('x2', 'r1', NOW + 2));
      await insertRatingAnswer(t.storage.db, answer('x1', 'r1', NOW + 1));
      expect((await findAnswersOfRatings(t.storage.db, ['r1'])).map((a) => a.id)).toEqual(['x1', 'x2']);
      expect(await deleteRatingAnswer(t.storage.db, 'x1')).toBe(1);
      expect((await findAnswersOfRatings(t.storage.db, ['r1'])).map((a) => a.id)).toEqual(['x2']);

      expect(await deleteRating(t.storage.db, 'r1')).toBe(1);
      expect(await findRatingById(t.storage.db, 'r1')).toBeUndefined();
      expect(await findAnswersOfRatings(t.storage.db, ['r1'])).toEqual([]);
    });

    it('drops the ratings and their answers with their API', async () => {
      await insertRating(t.storage.db, rating('r1', 'a1', 'u1', 5));
      await insertRatingAnswer(t.storage.db, answer('x1', 'r1', NOW));
      await deleteApi(t.storage.db, 'a1');

      expect(await findRatingById(t.storage.db, 'r1')).toBeUndefined();
      expect(await findAnswersOfRatings(t.storage.db, ['r1'])).toEqual([]);
    });
  });
}
