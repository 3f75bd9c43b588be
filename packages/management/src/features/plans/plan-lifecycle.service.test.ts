import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '@portico/storage';
import { findApiKeysOfSubscription, findPlanById, findSubscriptionById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import type { SubscriptionServices } from '../subscriptions/subscriptions.wiring.js';
import {
  newApi,
  ownedApplication,
  planInput,
  publishedPlan,
  refusal,
} from '../subscriptions/test-support/index.js';
import {
  KEYLESS_PLAN_EXISTS,
  PLAN_ALREADY_CLOSED,
  PLAN_NOT_PUBLISHED,
  PLAN_NOT_STAGING,
} from './plans.errors.js';
import type { PlanWorld } from './test-support/plan-rules.js';
import { planInStatus, startPlanWorld } from './test-support/plan-rules.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: plan rules: lifecycle`, () => {
    let t: TestApp;
    let s: SubscriptionServices;
    let owner: UserRow;
    let apiId: string;

    beforeAll(async () => {
      ({ t, s, owner, apiId } = await startPlanWorld(dialect));
    });
    afterAll(() => t?.close());

    const planIn = planInStatus((): PlanWorld => ({ t, s, owner, apiId }));

    describe('publish: staging → published', () => {
      it('publishes a staging plan', async () => {
        const plan = await s.plans.publish(owner, apiId, (await planIn('STAGING')).id);
        expect(plan.status).toBe('PUBLISHED');
        expect(plan.published_at).toBeGreaterThan(0);
      });

      for (const from of ['PUBLISHED', 'DEPRECATED', 'CLOSED'] as const) {
        it(`refuses to publish a ${from.toLowerCase()} plan`, async () => {
          const plan = await planIn(from);
          expect(await refusal(s.plans.publish(owner, apiId, plan.id))).toEqual({
            status: 400,
            message: PLAN_NOT_STAGING,
            field: undefined,
          });
          expect((await findPlanById(t.db, plan.id))?.status).toBe(from);
        });
      }

      it('allows one published or deprecated key-less plan per API', async () => {
        const other = (await newApi(s, owner, 'Keyless')).id;
        const first = await s.plans.create(owner, other, planInput({ security: 'KEY_LESS' }));
        const second = await s.plans.create(owner, other, planInput({ security: 'KEY_LESS' }));
        await s.plans.publish(owner, other, first.id);
        expect(await refusal(s.plans.publish(owner, other, second.id))).toMatchObject({
          message: KEYLESS_PLAN_EXISTS,
        });
        await s.plans.deprecate(owner, other, first.id);
        expect(await refusal(s.plans.publish(owner, other, second.id))).toMatchObject({
          message: KEYLESS_PLAN_EXISTS,
        });
        expect(
          await refusal(
            s.plans.create(owner, other, planInput({ security: 'KEY_LESS', status: 'PUBLISHED' })),
          ),
        ).toMatchObject({ message: KEYLESS_PLAN_EXISTS });
        await s.plans.close(owner, other, first.id);
        expect((await s.plans.publish(owner, other, second.id)).status).toBe('PUBLISHED');
      });
    });

    describe('deprecate: published → deprecated', () => {
      it('deprecates a published plan', async () => {
        expect((await s.plans.deprecate(owner, apiId, (await planIn('PUBLISHED')).id)).status).toBe(
          'DEPRECATED',
        );
      });

      for (const from of ['STAGING', 'DEPRECATED', 'CLOSED'] as const) {
        it(`refuses to deprecate a ${from.toLowerCase()} plan`, async () => {
          const plan = await planIn(from);
          expect(await refusal(s.plans.deprecate(owner, apiId, plan.id))).toMatchObject({
            message: PLAN_NOT_PUBLISHED,
          });
          expect((await findPlanById(t.db, plan.id))?.status).toBe(from);
        });
      }
    });

    describe('close: any plan not closed → closed', () => {
      for (const from of ['STAGING', 'PUBLISHED', 'DEPRECATED'] as const) {
        it(`closes a ${from.toLowerCase()} plan`, async () => {
          const plan = await s.plans.close(owner, apiId, (await planIn(from)).id);
          expect(plan.status).toBe('CLOSED');
          expect(plan.closed_at).toBeGreaterThan(0);
        });
      }

      it('refuses to close a closed plan', async () => {
        const plan = await planIn('CLOSED');
        expect(await refusal(s.plans.close(owner, apiId, plan.id))).toMatchObject({
          message: PLAN_ALREADY_CLOSED,
        });
      });

      it('closes the accepted and paused subscriptions (keys revoked) and rejects the pending ones', async () => {
        const plan = await publishedPlan(s, owner, apiId);
        const other = await publishedPlan(s, owner, apiId);
        const apps = await Promise.all([1, 2, 3, 4].map(() => ownedApplication(t, owner)));
        const accepted = await s.subscriptions.subscribe(owner, {
          planId: plan.id,
          applicationId: apps[0]!.id,
        });
        await s.subscriptions.accept(owner, apiId, accepted.id, {});
        const paused = await s.subscriptions.subscribe(owner, {
          planId: plan.id,
          applicationId: apps[1]!.id,
        });
        await s.subscriptions.accept(owner, apiId, paused.id, {});
        await s.subscriptions.pause(owner, apiId, paused.id);
        const pending = await s.subscriptions.subscribe(owner, {
          planId: plan.id,
          applicationId: apps[2]!.id,
        });
        const elsewhere = await s.subscriptions.subscribe(owner, {
          planId: other.id,
          applicationId: apps[3]!.id,
        });
        await s.subscriptions.accept(owner, apiId, elsewhere.id, {});

        await s.plans.close(owner, apiId, plan.id);

        expect((await findSubscriptionById(t.db, accepted.id))?.status).toBe('CLOSED');
        expect((await findSubscriptionById(t.db, paused.id))?.status).toBe('CLOSED');
        expect(await findSubscriptionById(t.db, pending.id)).toMatchObject({
          status: 'REJECTED',
          reason: 'The plan has been closed.',
        });
        expect((await findSubscriptionById(t.db, elsewhere.id))?.status).toBe('ACCEPTED');
        for (const id of [accepted.id, paused.id])
          expect((await findApiKeysOfSubscription(t.db, id)).every((k) => k.revoked === 1)).toBe(true);
        expect((await findApiKeysOfSubscription(t.db, elsewhere.id))[0]?.revoked).toBe(0);
      });
    });
  });
}
