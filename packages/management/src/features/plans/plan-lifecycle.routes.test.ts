import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlanById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, errorBody } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';
import { KEYLESS_PLAN_EXISTS, PLAN_NOT_STAGING } from './plans.errors.js';
import type { PlanCallsWorld } from './test-support/plan-calls.js';
import { planCallsHelpers, startPlanCallsWorld } from './test-support/plan-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: plan calls: lifecycle`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let reviewer: SignedInUser;
    let apiId: string;

    beforeAll(async () => {
      ({ t, u, reviewer, apiId } = await startPlanCallsWorld(dialect));
    });
    afterAll(() => t?.close());

    const { plansUrl, createPlan, action } = planCallsHelpers((): PlanCallsWorld => ({
      t,
      u,
      reviewer,
      apiId,
    }));

    describe('POST apis/{id}/plans/{planId}/_publish, _depreciate, _close', () => {
      it('moves a plan through its life and answers it', async () => {
        const plan = await createPlan();
        const published = await action(plan.id, '_publish');
        expect(published.statusCode).toBe(200);
        expect(published.json()).toMatchObject({ status: 'PUBLISHED', published_at: expect.any(Number) });
        expect((await action(plan.id, '_depreciate')).json()).toMatchObject({ status: 'DEPRECATED' });
        expect((await action(plan.id, '_close')).json()).toMatchObject({
          status: 'CLOSED',
          closed_at: expect.any(Number),
        });
      });

      it('refuses a transition the state machine does not allow, and changes nothing', async () => {
        const plan = await createPlan();
        await action(plan.id, '_publish');
        const res = await action(plan.id, '_publish');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(errorBody(400, PLAN_NOT_STAGING));
        expect((await findPlanById(t.db, plan.id))?.status).toBe('PUBLISHED');
      });

      it('refuses a second published key-less plan', async () => {
        const api = (await createApiAs(t, u.publisher.session)).id;
        const make = async () =>
          (
            await call(t.app, u.publisher.session, {
              method: 'POST',
              url: plansUrl(api),
              payload: { name: 'Free plan', description: 'x', security: 'key_less' },
            })
          ).json<{ id: string; validation: string }>();
        const [first, second] = [await make(), await make()];
        expect(first.validation).toBe('AUTO');
        await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `${plansUrl(api)}/${first.id}/_publish`,
        });
        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `${plansUrl(api)}/${second.id}/_publish`,
        });
        expect(res.json()).toEqual(errorBody(400, KEYLESS_PLAN_EXISTS));
      });

      it('refuses users without api-plan-u (403) and changes nothing', async () => {
        const plan = await createPlan();
        for (const name of ['_publish', '_depreciate', '_close']) {
          const res = await action(plan.id, name, reviewer.session);
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-plan-u'));
        }
        expect((await findPlanById(t.db, plan.id))?.status).toBe('STAGING');
      });

      it('makes the API out of sync until deployed', async () => {
        const api = (await createApiAs(t, u.publisher.session)).id;
        await call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${api}/deploy` });
        const state = async () =>
          (await call(t.app, u.publisher.session, { method: 'GET', url: `/apis/${api}/state` })).json()
            .is_synchronized;
        expect(await state()).toBe(true);
        const plan = (
          await call(t.app, u.publisher.session, {
            method: 'POST',
            url: plansUrl(api),
            payload: { name: 'Synced plan', description: 'x', security: 'API_KEY' },
          })
        ).json();
        await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `${plansUrl(api)}/${plan.id}/_publish`,
        });
        expect(await state()).toBe(false);
        await call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${api}/deploy` });
        expect(await state()).toBe(true);
      });
    });
  });
}
