import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRow, UserRow } from '@portico/storage';
import { findNotificationsOfUser, findRecentMails, findSubscriptionById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import type { SubscriptionServices } from './subscriptions.wiring.js';
import {
  ALREADY_SUBSCRIBED,
  END_BEFORE_NOW,
  END_BEFORE_START,
  NOT_ACCEPTED,
  NOT_CHANGEABLE,
  NOT_CLOSABLE,
  NOT_PAUSED,
  NOT_PENDING,
  NOT_TRANSFERABLE,
  START_BEFORE_TODAY,
  TRANSFER_OTHER_SECURITY,
  TRANSFER_PLAN_NOT_PUBLISHED,
  TRANSFER_SAME_PLAN,
} from './subscriptions.errors.js';
import { newApi, planInput, publishedPlan, refusal } from './test-support/index.js';
import type { RulesWorld } from './test-support/subscription-rules.js';
import { DAY, JWT_DEFINITION, rulesHelpers, startRulesWorld } from './test-support/subscription-rules.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: subscription lifecycle`, () => {
    let t: TestApp;
    let s: SubscriptionServices;
    let publisher: UserRow;
    let validator: UserRow;
    let consumer: UserRow;
    let apiId: string;
    let plan: PlanRow;

    beforeAll(async () => {
      ({ t, s, publisher, validator, consumer, apiId, plan } = await startRulesWorld(dialect));
    });
    afterAll(() => t?.close());

    const world = (): RulesWorld => ({ t, s, publisher, validator, consumer, apiId, plan });
    const { application, subscribe, subscriptionIn, statusOf, keysOf } = rulesHelpers(world);

    describe('accept: pending → accepted', () => {
      it('accepts with dates and a message, issues a key expiring with the subscription, tells the owner', async () => {
        const sub = await subscribe();
        const now = t.clock.peek();
        const accepted = await s.subscriptions.accept(validator, apiId, sub.id, {
          starting_at: now + DAY,
          ending_at: now + 30 * DAY,
          reason: 'Welcome',
        });
        expect(accepted).toMatchObject({
          status: 'ACCEPTED',
          processed_by: validator.id,
          starting_at: now + DAY,
          ending_at: now + 30 * DAY,
          reason: 'Welcome',
        });
        expect(accepted.updated_at).toBeGreaterThan(sub.updated_at);
        const keys = await keysOf(sub.id);
        expect(keys).toHaveLength(1);
        expect(keys[0]!.expire_at).toBe(now + 30 * DAY);
        const notified = await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 100 });
        expect(
          notified.rows.some((n) => n.title === 'Subscription accepted' && n.message.includes('Welcome')),
        ).toBe(true);
        const mails = await findRecentMails(t.db, 100);
        expect(
          mails.some(
            (m) => m.recipients.includes(consumer.email!) && m.subject.includes('Subscription accepted'),
          ),
        ).toBe(true);
      });

      it('starts today when no start date is given', async () => {
        const sub = await subscribe();
        const before = t.clock.peek();
        const accepted = await s.subscriptions.accept(validator, apiId, sub.id, {});
        expect(accepted.starting_at).toBeGreaterThanOrEqual(before);
        expect(accepted.ending_at).toBeNull();
      });

      it('refuses a start before today and an end before the start', async () => {
        const sub = await subscribe();
        const now = t.clock.peek();
        expect(
          await refusal(s.subscriptions.accept(validator, apiId, sub.id, { starting_at: now - 2 * DAY })),
        ).toEqual({
          status: 400,
          message: START_BEFORE_TODAY,
          field: 'starting_at',
        });
        expect(
          await refusal(
            s.subscriptions.accept(validator, apiId, sub.id, {
              starting_at: now + DAY,
              ending_at: now + 1000,
            }),
          ),
        ).toEqual({ status: 400, message: END_BEFORE_START, field: 'ending_at' });
        expect(await statusOf(sub.id)).toBe('PENDING');
        expect(await keysOf(sub.id)).toEqual([]);
      });

      for (const from of ['ACCEPTED', 'PAUSED', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to accept or reject a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.accept(validator, apiId, sub.id, {}))).toMatchObject({
            message: NOT_PENDING,
          });
          expect(await refusal(s.subscriptions.reject(validator, apiId, sub.id, 'no'))).toMatchObject({
            message: NOT_PENDING,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }

      it('answers 404 for a subscription of another API', async () => {
        const sub = await subscribe();
        const other = await newApi(s, publisher, 'NotThisOne');
        expect((await refusal(s.subscriptions.accept(validator, other.id, sub.id, {}))).status).toBe(404);
      });
    });

    describe('reject: pending → rejected', () => {
      it('rejects with the reason, closes it and tells the owner', async () => {
        const sub = await subscribe();
        const rejected = await s.subscriptions.reject(validator, apiId, sub.id, 'Not for you');
        expect(rejected).toMatchObject({
          status: 'REJECTED',
          reason: 'Not for you',
          processed_by: validator.id,
        });
        expect(rejected.closed_at).toBe(rejected.processed_at);
        expect(await keysOf(sub.id)).toEqual([]);
        const notified = await findNotificationsOfUser(t.db, consumer.id, { offset: 0, limit: 200 });
        expect(
          notified.rows.some((n) => n.title === 'Subscription rejected' && n.message.includes('Not for you')),
        ).toBe(true);
      });
    });

    describe('pause and resume', () => {
      it('pauses an accepted subscription and its keys, and resumes both', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        const paused = await s.subscriptions.pause(validator, apiId, sub.id);
        expect(paused.status).toBe('PAUSED');
        expect(paused.paused_at).toBeGreaterThan(0);
        expect((await keysOf(sub.id)).map((k) => k.paused)).toEqual([1]);
        const resumed = await s.subscriptions.resume(validator, apiId, sub.id);
        expect(resumed).toMatchObject({ status: 'ACCEPTED', paused_at: null });
        expect((await keysOf(sub.id)).map((k) => k.paused)).toEqual([0]);
      });

      for (const from of ['PENDING', 'PAUSED', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to pause a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.pause(validator, apiId, sub.id))).toMatchObject({
            message: NOT_ACCEPTED,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }

      for (const from of ['PENDING', 'ACCEPTED', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to resume a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.resume(validator, apiId, sub.id))).toMatchObject({
            message: NOT_PAUSED,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }
    });

    describe('close', () => {
      for (const from of ['ACCEPTED', 'PAUSED'] as const) {
        it(`closes a ${from.toLowerCase()} subscription and revokes its keys`, async () => {
          const sub = await subscriptionIn(from);
          const closed = await s.subscriptions.close(validator, apiId, sub.id);
          expect(closed.status).toBe('CLOSED');
          expect(closed.closed_at).toBeGreaterThan(0);
          const keys = await keysOf(sub.id);
          expect(keys.map((k) => k.revoked)).toEqual([1]);
          expect(keys[0]!.revoked_at).toBe(closed.closed_at);
        });
      }

      for (const from of ['PENDING', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to close a ${from.toLowerCase()} subscription from the API side`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.close(validator, apiId, sub.id))).toMatchObject({
            message: NOT_CLOSABLE,
          });
          expect(await statusOf(sub.id)).toBe(from);
        });
      }

      it('lets the application close a pending subscription, but not a closed one', async () => {
        const pending = await subscriptionIn('PENDING');
        expect(
          (await s.subscriptions.closeByApplication(consumer, pending.application_id, pending.id)).status,
        ).toBe('CLOSED');
        const closed = await subscriptionIn('CLOSED');
        expect(
          (await refusal(s.subscriptions.closeByApplication(consumer, closed.application_id, closed.id)))
            .status,
        ).toBe(400);
        const other = await application();
        expect(
          (await refusal(s.subscriptions.closeByApplication(consumer, other.id, pending.id))).status,
        ).toBe(404);
      });
    });

    describe('transfer', () => {
      let target: PlanRow;
      beforeEach(async () => {
        target = await publishedPlan(s, publisher, apiId);
      });

      for (const from of ['ACCEPTED', 'PAUSED'] as const) {
        it(`moves a ${from.toLowerCase()} subscription and its keys to another published plan of the same security`, async () => {
          const sub = await subscriptionIn(from);
          const moved = await s.subscriptions.transfer(validator, apiId, sub.id, target.id);
          expect(moved).toMatchObject({ plan_id: target.id, status: from });
          expect((await keysOf(sub.id)).map((k) => k.plan_id)).toEqual([target.id]);
        });
      }

      for (const from of ['PENDING', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to transfer a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, target.id))).toMatchObject({
            message: NOT_TRANSFERABLE,
          });
        });
      }

      it('refuses the same plan, a plan not published, another security type, a plan of another API', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, plan.id))).toMatchObject({
          message: TRANSFER_SAME_PLAN,
        });
        const staging = await s.plans.create(publisher, apiId, planInput());
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, staging.id))).toMatchObject({
          message: TRANSFER_PLAN_NOT_PUBLISHED,
        });
        const jwt = await publishedPlan(s, publisher, apiId, {
          security: 'JWT',
          securityDefinition: JWT_DEFINITION,
        });
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, jwt.id))).toMatchObject({
          message: TRANSFER_OTHER_SECURITY,
        });
        const otherApi = await newApi(s, publisher, 'Foreign');
        const foreign = await publishedPlan(s, publisher, otherApi.id);
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, foreign.id))).toMatchObject({
          status: 400,
          field: 'plan',
        });
        expect((await findSubscriptionById(t.db, sub.id))?.plan_id).toBe(plan.id);
      });

      it('refuses a plan the application already subscribes to', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        await s.subscriptions.subscribe(consumer, { planId: target.id, applicationId: sub.application_id });
        expect(await refusal(s.subscriptions.transfer(validator, apiId, sub.id, target.id))).toMatchObject({
          message: ALREADY_SUBSCRIBED,
        });
      });
    });

    describe('change of the end date', () => {
      it('sets a new end, and keys expiring later expire with the subscription', async () => {
        const sub = await subscriptionIn('ACCEPTED');
        const end = t.clock.peek() + 10 * DAY;
        const changed = await s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: end });
        expect(changed.ending_at).toBe(end);
        expect((await keysOf(sub.id))[0]!.expire_at).toBe(end);
      });

      it('refuses an end earlier than now or before the start', async () => {
        const sub = await subscriptionIn('PAUSED');
        const now = t.clock.peek();
        expect(
          await refusal(s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: now - 1000 })),
        ).toEqual({
          status: 400,
          message: END_BEFORE_NOW,
          field: 'ending_at',
        });
        expect(
          await refusal(
            s.subscriptions.changeDates(validator, apiId, sub.id, {
              starting_at: now + 5 * DAY,
              ending_at: now + DAY,
            }),
          ),
        ).toMatchObject({ message: END_BEFORE_START });
        expect((await findSubscriptionById(t.db, sub.id))?.ending_at).toBeNull();
      });

      for (const from of ['PENDING', 'REJECTED', 'CLOSED'] as const) {
        it(`refuses to change the dates of a ${from.toLowerCase()} subscription`, async () => {
          const sub = await subscriptionIn(from);
          expect(
            await refusal(
              s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: t.clock.peek() + DAY }),
            ),
          ).toMatchObject({ message: NOT_CHANGEABLE });
        });
      }
    });
  });
}
