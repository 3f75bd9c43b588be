import { describe, expect, it } from 'vitest';
import { findApiKey, findApiKeysOfSubscription, findSubscriptionById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { call, errorBody, invalidFieldBody } from '../../test-support/index.js';
import { DAY, useCallsWorld } from './test-support/subscription-calls.js';
import { START_BEFORE_TODAY, TRANSFER_OTHER_SECURITY } from './subscriptions.errors.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: API subscription calls: process, status, transfer`, () => {
    const { w, subscribe, accepted, sub } = useCallsWorld(dialect);

    describe('POST .../_process, .../status, .../_transfer', () => {
      it('accepts with dates and a message; the key appears', async () => {
        const s = await subscribe();
        const start = w.t.clock.peek() + DAY;
        const res = await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: true, starting_at: start, ending_at: start + 30 * DAY, reason: 'Welcome' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          status: 'ACCEPTED',
          starting_at: start,
          ending_at: start + 30 * DAY,
          reason: 'Welcome',
        });
        const keys = await call(w.t.app, w.reviewer.session, { method: 'GET', url: sub(s.id, '/keys') });
        expect(keys.json()).toEqual([
          expect.objectContaining({
            revoked: false,
            expired: false,
            expire_at: start + 30 * DAY,
            subscription: s.id,
          }),
        ]);
      });

      it('rejects with a reason', async () => {
        const s = await subscribe();
        const res = await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: false, reason: 'Not now' },
        });
        expect(res.json()).toMatchObject({
          status: 'REJECTED',
          reason: 'Not now',
          closed_at: expect.any(Number),
        });
      });

      it('refuses a start before today and a missing decision, naming the field, and changes nothing', async () => {
        const s = await subscribe();
        const early = await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: { accepted: true, starting_at: w.t.clock.peek() - 3 * DAY },
        });
        expect(early.json()).toEqual(errorBody(400, START_BEFORE_TODAY, 'starting_at'));
        const missing = await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_process'),
          payload: {},
        });
        expect(missing.json()).toEqual(invalidFieldBody('accepted', 'is required'));
        expect((await findSubscriptionById(w.t.db, s.id))?.status).toBe('PENDING');
      });

      it('pauses, resumes and closes; the keys follow', async () => {
        const s = await accepted();
        const [key] = await findApiKeysOfSubscription(w.t.db, s.id);
        const status = async (value: string) =>
          call(w.t.app, w.validator.session, { method: 'POST', url: sub(s.id, `/status?status=${value}`) });
        expect((await status('PAUSED')).json()).toMatchObject({
          status: 'PAUSED',
          paused_at: expect.any(Number),
        });
        expect((await findApiKey(w.t.db, key!.key))?.paused).toBe(1);
        expect((await status('resumed')).json()).toMatchObject({ status: 'ACCEPTED', paused_at: null });
        expect((await findApiKey(w.t.db, key!.key))?.paused).toBe(0);
        expect((await status('CLOSED')).json()).toMatchObject({ status: 'CLOSED' });
        expect((await findApiKey(w.t.db, key!.key))?.revoked).toBe(1);
        const unknown = await status('DELETED');
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json().field).toBe('status');
      });

      it('transfers to another published plan of the same security; refuses another security', async () => {
        const s = await accepted();
        const res = await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_transfer'),
          payload: { id: s.id, plan: w.otherPlan },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().plan).toMatchObject({ id: w.otherPlan, name: 'Other plan' });
        const refused = await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_transfer'),
          payload: { plan: w.jwtPlan },
        });
        expect(refused.json()).toEqual(errorBody(400, TRANSFER_OTHER_SECURITY, 'plan'));
        const missing = await call(w.t.app, w.validator.session, {
          method: 'POST',
          url: sub(s.id, '/_transfer'),
          payload: {},
        });
        expect(missing.json()).toEqual(invalidFieldBody('plan', 'is required'));
        expect((await findSubscriptionById(w.t.db, s.id))?.plan_id).toBe(w.otherPlan);
      });

      it('refuses users without api-subscription-u (403) and changes nothing', async () => {
        const s = await subscribe();
        for (const [url, payload] of [
          [sub(s.id, '/_process'), { accepted: true }],
          [sub(s.id, '/status?status=CLOSED'), undefined],
          [sub(s.id, '/_transfer'), { plan: w.otherPlan }],
        ] as const) {
          const res = await call(w.t.app, w.reviewer.session, {
            method: 'POST',
            url,
            ...(payload ? { payload } : {}),
          });
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-subscription-u'));
        }
        expect(await findSubscriptionById(w.t.db, s.id)).toMatchObject({
          status: 'PENDING',
          plan_id: w.plan,
        });
      });
    });
  });
}
