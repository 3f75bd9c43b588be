import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlanById, findPlansByApi } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { PLAN_NAME_TOO_LONG, PLAN_NAME_TOO_SHORT } from '@portico/model';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import { call, errorBody, invalidFieldBody } from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { countRows, createApiAs } from '../apis/test-support/index.js';
import { PLAN_HAS_SUBSCRIPTIONS } from './plans.errors.js';
import type { PlanCallsWorld } from './test-support/plan-calls.js';
import { RATE_LIMIT, planCallsHelpers, startPlanCallsWorld } from './test-support/plan-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: plan calls`, () => {
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

    it('documents the plan calls in the OpenAPI document', async () => {
      const res = await call(t.app, undefined, { method: 'GET', url: '/openapi.json' });
      expect(Object.keys(res.json().paths)).toEqual(
        expect.arrayContaining([
          '/apis/{api}/plans',
          '/apis/{api}/plans/{plan}',
          '/apis/{api}/plans/{plan}/_publish',
          '/apis/{api}/plans/{plan}/_depreciate',
          '/apis/{api}/plans/{plan}/_close',
        ]),
      );
    });

    describe('POST apis/{id}/plans', () => {
      it('creates a staging plan with the wire fields, lower-case spellings accepted', async () => {
        const res = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: plansUrl(),
          payload: {
            name: 'Silver',
            description: 'For most',
            security: 'apikey',
            validation: 'auto',
            characteristics: ['fast'],
            paths: { '/': [{ methods: ['GET'], enabled: true, 'rate-limit': RATE_LIMIT }] },
            comment_required: true,
            comment_message: 'Why?',
          },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          id: expect.any(String),
          api: apiId,
          name: 'Silver',
          security: 'API_KEY',
          validation: 'AUTO',
          status: 'STAGING',
          characteristics: ['fast'],
          paths: { '/': [{ 'rate-limit': RATE_LIMIT }] },
          comment_required: true,
          comment_message: 'Why?',
          excluded_groups: [],
          tags: [],
          securityDefinition: null,
          published_at: null,
          closed_at: null,
        });
      });

      for (const [what, payload, expected] of [
        ['a name shorter than 4', { name: 'abc' }, invalidFieldBody('name', PLAN_NAME_TOO_SHORT)],
        ['a name longer than 50', { name: 'x'.repeat(51) }, invalidFieldBody('name', PLAN_NAME_TOO_LONG)],
        [
          'a missing description',
          { description: undefined },
          invalidFieldBody('description', 'Description is required.'),
        ],
        ['an unknown security type', { security: 'basic' }, invalidFieldBody('security', /Invalid option/)],
        [
          'a comment message longer than 64',
          { comment_message: 'x'.repeat(65) },
          invalidFieldBody('comment_message', /64/),
        ],
        [
          'a rate limit that is not a number',
          { paths: { '/': [{ 'rate-limit': { rate: { limit: 'many' } } }] } },
          invalidFieldBody('paths./.0.rate-limit.rate.limit', /expected number/),
        ],
        [
          'a quota with an unknown unit',
          { paths: { '/': [{ quota: { quota: { limit: 10, periodTime: 1, periodTimeUnit: 'YEARS' } } }] } },
          invalidFieldBody('paths./.0.quota.quota.periodTimeUnit', /Invalid option/),
        ],
        [
          'a rate limit per hour (rate limits count per seconds or minutes)',
          {
            paths: {
              '/': [{ 'rate-limit': { rate: { limit: 10, periodTime: 1, periodTimeUnit: 'HOURS' } } }],
            },
          },
          invalidFieldBody('paths./.0.rate-limit.rate.periodTimeUnit', /Invalid option/),
        ],
        [
          'a quota per second (quotas count per hours, days, weeks or months)',
          { paths: { '/': [{ quota: { quota: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' } } }] } },
          invalidFieldBody('paths./.0.quota.quota.periodTimeUnit', /Invalid option/),
        ],
        [
          'an unknown policy',
          { paths: { '/': [{ teleport: {} }] } },
          invalidFieldBody('paths./.0', /Unknown policy teleport/),
        ],
      ] as const) {
        it(`refuses ${what} (400 naming the field) and stores nothing`, async () => {
          const before = await countRows(t.db, 'plans');
          const res = await call(t.app, u.publisher.session, {
            method: 'POST',
            url: plansUrl(),
            payload: {
              name: 'Valid name',
              description: 'Valid',
              security: 'API_KEY',
              ...(payload as Record<string, unknown>),
            },
          });
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json()).toEqual(expected);
          expect(await countRows(t.db, 'plans')).toBe(before);
        });
      }

      it('refuses a user without api-plan-c (403), a reviewer included, and stores nothing', async () => {
        const before = await countRows(t.db, 'plans');
        for (const session of [u.outsider.session, reviewer.session]) {
          const res = await call(t.app, session, {
            method: 'POST',
            url: plansUrl(),
            payload: { name: 'Sneaky plan', description: 'x', security: 'KEY_LESS' },
          });
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual(errorBody(403, 'You do not have the permission api-plan-c'));
        }
        expect(await countRows(t.db, 'plans')).toBe(before);
      });
    });

    describe('GET, PUT, DELETE apis/{id}/plans/{planId}', () => {
      it('reads one plan with api-plan-r; 403 without; 404 for a plan of another API', async () => {
        const plan = await createPlan();
        const res = await call(t.app, reviewer.session, { method: 'GET', url: `${plansUrl()}/${plan.id}` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ id: plan.id, name: 'Gold plan' });
        expect(
          (await call(t.app, u.outsider.session, { method: 'GET', url: `${plansUrl()}/${plan.id}` }))
            .statusCode,
        ).toBe(403);
        const other = (await createApiAs(t, u.publisher.session)).id;
        expect(
          (await call(t.app, u.publisher.session, { method: 'GET', url: `${plansUrl(other)}/${plan.id}` }))
            .statusCode,
        ).toBe(404);
      });

      it('saves a plan, ignoring read-only fields, and saves each plan with its order (reorder)', async () => {
        const a = await createPlan({ name: 'First plan' });
        const b = await createPlan({ name: 'Second plan' });
        for (const [id, order] of [
          [b.id, 1],
          [a.id, 2],
        ] as const) {
          const res = await call(t.app, u.publisher.session, {
            method: 'PUT',
            url: `${plansUrl()}/${id}`,
            payload: { order, status: 'CLOSED', id: 'ignored', created_at: 1 },
          });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json()).toMatchObject({ id, order, status: 'STAGING' });
        }
        const ordered = (await findPlansByApi(t.db, apiId)).filter((p) => [a.id, b.id].includes(p.id));
        expect(ordered.map((p) => p.id)).toEqual([b.id, a.id]);
      });

      it('refuses a name over 50, a change of security, a bad policy, naming the field, and stores nothing', async () => {
        const plan = await createPlan();
        for (const [payload, field] of [
          [{ name: 'x'.repeat(51) }, 'name'],
          [{ security: 'KEY_LESS' }, 'security'],
          [
            { paths: { '/': [{ 'rate-limit': { rate: { limit: -1 } } }] } },
            'paths./.0.rate-limit.rate.limit',
          ],
          [{ comment_message: 'y'.repeat(65) }, 'comment_message'],
        ] as const) {
          const res = await call(t.app, u.publisher.session, {
            method: 'PUT',
            url: `${plansUrl()}/${plan.id}`,
            payload,
          });
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json().field).toBe(field);
        }
        expect(await findPlanById(t.db, plan.id)).toMatchObject({
          name: 'Gold plan',
          security: 'API_KEY',
          paths: '{}',
        });
      });

      it('refuses to save or delete without api-plan-u / api-plan-d', async () => {
        const plan = await createPlan();
        const put = await call(t.app, reviewer.session, {
          method: 'PUT',
          url: `${plansUrl()}/${plan.id}`,
          payload: { name: 'Mine' },
        });
        expect(put.json()).toEqual(errorBody(403, 'You do not have the permission api-plan-u'));
        const del = await call(t.app, reviewer.session, {
          method: 'DELETE',
          url: `${plansUrl()}/${plan.id}`,
        });
        expect(del.json()).toEqual(errorBody(403, 'You do not have the permission api-plan-d'));
        expect(await findPlanById(t.db, plan.id)).toMatchObject({ name: 'Gold plan' });
      });

      it('deletes a plan without subscriptions; refuses one with an active subscription', async () => {
        const plan = await createPlan();
        const res = await call(t.app, u.publisher.session, {
          method: 'DELETE',
          url: `${plansUrl()}/${plan.id}`,
        });
        expect(res.statusCode).toBe(204);
        expect(await findPlanById(t.db, plan.id)).toBeUndefined();

        const busy = await createPlan({ validation: 'AUTO' });
        await action(busy.id, '_publish');
        const app = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: '/applications',
          payload: { name: 'Busy app', description: 'x' },
        });
        await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `/apis/${apiId}/subscriptions?plan=${busy.id}&application=${app.json().id}`,
        });
        const refused = await call(t.app, u.publisher.session, {
          method: 'DELETE',
          url: `${plansUrl()}/${busy.id}`,
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual(errorBody(400, PLAN_HAS_SUBSCRIPTIONS));
        expect(await findPlanById(t.db, busy.id)).toBeDefined();
      });
    });
  });
}
