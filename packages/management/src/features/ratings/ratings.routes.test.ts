import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRow } from '@portico/storage';
import { insertNotificationSetting } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp, TestSession } from '../../test-support/index.js';
import {
  call,
  createApi,
  errorBody,
  grantRoleOn,
  invalidFieldBody,
  login,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API ratings`, () => {
    let t: TestApp;
    let admin: TestSession;
    let owner: SignedInUser;
    let reviewer: SignedInUser;
    let dev: SignedInUser;
    let publicApi: ApiRow;
    let privateApi: ApiRow;
    const url = (api: ApiRow, rest = '') => `/apis/${api.id}/ratings${rest}`;
    const setPortal = async (rating: object) => {
      const res = await call(t.app, admin, {
        method: 'POST',
        url: '/portal',
        payload: { portal: { rating } },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const rate = (who: TestSession | undefined, api: ApiRow, payload: object) =>
      call(t.app, who, { method: 'POST', url: url(api), payload });

    beforeAll(async () => {
      t = await startTestApp(dialect, { options: { schedulerTickMs: 0 } });
      admin = await login(t.app, 'admin', 'admin');
      owner = await signInNewUser(t.app, t.db, {}, { firstname: 'Olga', lastname: 'Owner' });
      reviewer = await signInNewUser(t.app, t.db);
      dev = await signInNewUser(t.app, t.db, {}, { firstname: 'Dana', lastname: 'Dev' });
    });
    afterAll(() => t?.close());
    beforeEach(async () => {
      await setPortal({ enabled: true, comment: { mandatory: false } });
      publicApi = await createApi(t.db, { visibility: 'PUBLIC', name: 'Weather', version: '2' });
      privateApi = await createApi(t.db, { visibility: 'PRIVATE' });
      for (const api of [publicApi, privateApi]) {
        await grantRoleOn(t.db, owner.user.id, 'API', api.id, 'PRIMARY_OWNER');
        await grantRoleOn(t.db, reviewer.user.id, 'API', api.id, 'REVIEWER');
      }
    });

    describe('creating and changing one rating per user and API', () => {
      it('lets a signed-in developer rate a PUBLIC API once, then change their own rating', async () => {
        const created = await rate(dev.session, publicApi, { rate: 4, title: 'Good', comment: 'Fast' });
        expect(created.statusCode, created.body).toBe(201);
        expect(created.json()).toMatchObject({
          ...{ api: publicApi.id, rate: 4, title: 'Good', comment: 'Fast' },
          ...{ user: dev.user.id, userDisplayName: 'Dana Dev', answers: [] },
        });
        const again = await rate(dev.session, publicApi, { rate: 1 });
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual(errorBody(400, /already rated/));

        const current = await call(t.app, dev.session, { method: 'GET', url: url(publicApi, '/current') });
        expect(current.json()).toMatchObject({ id: created.json().id, rate: 4 });
        const changed = await call(t.app, dev.session, {
          method: 'PUT',
          url: url(publicApi, `/${created.json().id}`),
          payload: { rate: 2, title: 'Slower now', comment: 'Times out' },
        });
        expect(changed.statusCode, changed.body).toBe(200);
        expect(changed.json()).toMatchObject({ rate: 2, title: 'Slower now', comment: 'Times out' });
        const page = await call(t.app, dev.session, { method: 'GET', url: url(publicApi) });
        expect(page.json()).toMatchObject({ totalElements: 1, content: [{ rate: 2, title: 'Slower now' }] });
      });

      it('answers 204 for the current rating of a user who has not rated', async () => {
        const res = await call(t.app, dev.session, { method: 'GET', url: url(publicApi, '/current') });
        expect(res.statusCode).toBe(204);
      });

      it('refuses a rate outside 1 to 5, a title over 64 and a comment over 1024 characters', async () => {
        expect((await rate(dev.session, publicApi, { rate: 6 })).json()).toEqual(invalidFieldBody('rate'));
        expect((await rate(dev.session, publicApi, { rate: 0 })).json()).toEqual(invalidFieldBody('rate'));
        const title = await rate(dev.session, publicApi, { rate: 3, title: 'x'.repeat(65) });
        expect(title.json()).toEqual(invalidFieldBody('title'));
        const comment = await rate(dev.session, publicApi, { rate: 3, comment: 'x'.repeat(1025) });
        expect(comment.json()).toEqual(invalidFieldBody('comment'));
        expect((await rate(dev.session, publicApi, { rate: 3, title: 'x'.repeat(64) })).statusCode).toBe(201);
      });

      it('asks for a title and a comment when the comment is mandatory', async () => {
        await setPortal({ comment: { mandatory: true } });
        const noTitle = await rate(dev.session, publicApi, { rate: 5, comment: 'Nice' });
        expect(noTitle.statusCode).toBe(400);
        expect(noTitle.json()).toEqual(invalidFieldBody('title', 'A title is required'));
        const noComment = await rate(dev.session, publicApi, { rate: 5, title: 'Nice', comment: '  ' });
        expect(noComment.json()).toEqual(invalidFieldBody('comment', 'A comment is required'));
        expect(
          (await rate(dev.session, publicApi, { rate: 5, title: 'Nice', comment: 'Yes' })).statusCode,
        ).toBe(201);
      });

      it('lets nobody change the rating of somebody else, not even the owner', async () => {
        const mine = (await rate(dev.session, publicApi, { rate: 5 })).json();
        const res = await call(t.app, owner.session, {
          method: 'PUT',
          url: url(publicApi, `/${mine.id}`),
          payload: { rate: 1 },
        });
        expect(res.statusCode).toBe(403);
      });
    });

    describe('list and summary', () => {
      it('pages the ratings 10 at a time, newest first', async () => {
        const raters = [];
        for (let i = 0; i < 12; i++) raters.push(await signInNewUser(t.app, t.db));
        for (const [i, r] of raters.entries())
          await rate(r.session, publicApi, { rate: 1 + (i % 5), title: `#${i}` });

        const first = (await call(t.app, undefined, { method: 'GET', url: url(publicApi) })).json();
        expect(first).toMatchObject({ pageNumber: 1, pageElements: 10, totalElements: 12 });
        expect(first.content[0].title).toBe('#11');
        const second = await call(t.app, undefined, {
          method: 'GET',
          url: url(publicApi, '?pageSize=10&pageNumber=2'),
        });
        expect(second.json().content.map((c: { title: string }) => c.title)).toEqual(['#1', '#0']);
        const bad = await call(t.app, undefined, { method: 'GET', url: url(publicApi, '?pageNumber=0') });
        expect(bad.json()).toEqual(invalidFieldBody('pageNumber'));
      });

      it('counts the ratings per star and averages them to one decimal, also in the API', async () => {
        for (const value of [5, 4, 4]) {
          const r = await signInNewUser(t.app, t.db);
          await rate(r.session, publicApi, { rate: value });
        }
        const res = await call(t.app, undefined, { method: 'GET', url: url(publicApi, '/summary') });
        expect(res.json()).toEqual({
          api: publicApi.id,
          numberOfRatings: 3,
          averageRate: 4.3,
          numberOfRatingsByRate: { '1': 0, '2': 0, '3': 0, '4': 2, '5': 1 },
        });
        const api = await call(t.app, undefined, { method: 'GET', url: `/apis/${publicApi.id}` });
        expect(api.json()).toMatchObject({ rate: 4.3, numberOfRatings: 3 });
        await setPortal({ enabled: false });
        const hidden = (await call(t.app, admin, { method: 'GET', url: `/apis/${publicApi.id}` })).json();
        expect([hidden.rate, hidden.numberOfRatings]).toEqual([undefined, undefined]);
        await setPortal({ enabled: true });
        const none = await call(t.app, undefined, { method: 'GET', url: url(privateApi, '/summary') });
        expect(none.statusCode).toBe(401);
        const empty = await call(t.app, reviewer.session, {
          method: 'GET',
          url: url(privateApi, '/summary'),
        });
        expect(empty.json()).toMatchObject({ numberOfRatings: 0, averageRate: null });
      });
    });

    describe('permissions', () => {
      it('shows PUBLIC ratings to anybody, others to holders of api-rating-r only', async () => {
        expect((await call(t.app, undefined, { method: 'GET', url: url(publicApi) })).statusCode).toBe(200);
        expect((await call(t.app, undefined, { method: 'GET', url: url(privateApi) })).statusCode).toBe(401);
        const stranger = await call(t.app, dev.session, { method: 'GET', url: url(privateApi) });
        expect(stranger.json()).toEqual(errorBody(403, 'You do not have the permission api-rating-r'));
        expect(
          (await call(t.app, reviewer.session, { method: 'GET', url: url(privateApi) })).statusCode,
        ).toBe(200);
        const missing = await call(t.app, dev.session, { method: 'GET', url: '/apis/nope/ratings' });
        expect(missing.statusCode).toBe(404);
      });

      it('needs a session and api-rating-c to rate', async () => {
        expect((await rate(undefined, publicApi, { rate: 3 })).statusCode).toBe(401);
        expect((await rate(undefined, publicApi, { rate: 9 })).statusCode).toBe(401);
        const res = await rate(reviewer.session, publicApi, { rate: 3 });
        expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-rating-c'));
        expect((await rate(dev.session, privateApi, { rate: 3 })).statusCode).toBe(403);
        const rights = await call(t.app, dev.session, { method: 'GET', url: url(publicApi, '/permissions') });
        expect(rights.json()).toEqual({ RATING: 'CRU', RATING_ANSWER: 'R' });
      });

      it('deletes a rating with api-rating-d only', async () => {
        const mine = (await rate(dev.session, publicApi, { rate: 2 })).json();
        const byDev = await call(t.app, dev.session, {
          method: 'DELETE',
          url: url(publicApi, `/${mine.id}`),
        });
        expect(byDev.json()).toEqual(errorBody(403, 'You do not have the permission api-rating-d'));
        const byOwner = await call(t.app, owner.session, {
          method: 'DELETE',
          url: url(publicApi, `/${mine.id}`),
        });
        expect(byOwner.statusCode).toBe(204);
        const again = await call(t.app, owner.session, {
          method: 'DELETE',
          url: url(publicApi, `/${mine.id}`),
        });
        expect(again.statusCode).toBe(404);
        expect(
          (await call(t.app, undefined, { method: 'GET', url: url(publicApi) })).json().totalElements,
        ).toBe(0);
      });

      it('answers with api-rating_answer-c, shows answers to api-rating_answer-r, deletes with -d', async () => {
        const mine = (await rate(dev.session, publicApi, { rate: 3, title: 'Ok' })).json();
        const answers = url(publicApi, `/${mine.id}/answers`);
        const byDev = await call(t.app, dev.session, {
          method: 'POST',
          url: answers,
          payload: { comment: 'Me' },
        });
        expect(byDev.json()).toEqual(errorBody(403, 'You do not have the permission api-rating_answer-c'));
        const tooLong = await call(t.app, owner.session, {
          ...{ method: 'POST', url: answers },
          payload: { comment: 'x'.repeat(1025) },
        });
        expect(tooLong.json()).toEqual(invalidFieldBody('comment'));
        const res = await call(t.app, owner.session, {
          method: 'POST',
          url: answers,
          payload: { comment: 'Thanks!' },
        });
        expect(res.statusCode, res.body).toBe(201);
        const answer = res.json().answers[0];
        expect(answer).toMatchObject({ comment: 'Thanks!', userDisplayName: 'Olga Owner' });

        const seenByDev = (await call(t.app, dev.session, { method: 'GET', url: url(publicApi) })).json();
        expect(seenByDev.content[0].answers).toEqual([answer]);
        const seenByAnybody = (await call(t.app, undefined, { method: 'GET', url: url(publicApi) })).json();
        expect(seenByAnybody.content[0].answers).toBeUndefined();

        const one = `${answers}/${answer.id}`;
        expect((await call(t.app, dev.session, { method: 'DELETE', url: one })).statusCode).toBe(403);
        expect((await call(t.app, owner.session, { method: 'DELETE', url: one })).statusCode).toBe(204);
        expect((await call(t.app, owner.session, { method: 'DELETE', url: one })).statusCode).toBe(404);
      });
    });

    it('answers 503 on every call while rating is disabled', async () => {
      const mine = (await rate(dev.session, publicApi, { rate: 5 })).json();
      await setPortal({ enabled: false });
      for (const [method, path] of [
        ['GET', ''],
        ['GET', '/summary'],
        ['GET', '/current'],
        ['POST', ''],
        ['DELETE', `/${mine.id}`],
      ] as const) {
        const res = await call(t.app, owner.session, {
          method,
          url: url(publicApi, path),
          payload: { rate: 1 },
        });
        expect(res.json(), `${method} ${path}`).toEqual(errorBody(503, 'API rating is not available'));
      }
    });

    it('tells the notification settings of the API of a new rating and a new answer', async () => {
      const now = t.clock.peek();
      await insertNotificationSetting(t.db, {
        ...{ id: `n-${publicApi.id}`, name: 'Portal Notification', config_type: 'PORTAL' },
        ...{ reference_type: 'API', reference_id: publicApi.id, user_id: owner.user.id, notifier: null },
        ...{ config: null, use_system_proxy: 0, hooks: JSON.stringify(['NEW_RATING', 'NEW_RATING_ANSWER']) },
        ...{ created_at: now, updated_at: now },
      });
      const mine = (await rate(dev.session, publicApi, { rate: 4 })).json();
      await call(t.app, owner.session, {
        ...{ method: 'POST', url: url(publicApi, `/${mine.id}/answers`) },
        payload: { comment: 'Thanks' },
      });
      const inbox = await call(t.app, owner.session, { method: 'GET', url: '/user/notifications' });
      const told = inbox
        .json()
        .data.filter((n: { message: string }) => n.message.includes('Weather (2)'))
        .map((n: { title: string; message: string }) => [n.title, n.message]);
      expect(told).toEqual([
        ['New rating answer', 'A rating of the API Weather (2) has received an answer.'],
        ['New rating', 'The API Weather (2) has received a new rating (4/5).'],
      ]);
    });
  });
}
