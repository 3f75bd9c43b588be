import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlanById, findPlansByApi } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { PLAN_NAME_TOO_LONG, PLAN_NAME_TOO_SHORT } from '@portico/model';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import {
  call,
  createGroup,
  errorBody,
  invalidFieldBody,
  grantRoleOn,
  grantRoleThroughGroup,
  signInNewUser,
  startTestApp,
} from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { apiUsers, countRows, createApiAs } from '../apis/test-support/index.js';
import { KEYLESS_PLAN_EXISTS, PLAN_HAS_SUBSCRIPTIONS, PLAN_NOT_STAGING } from './plans.errors.js';

const RATE_LIMIT = { rate: { limit: 3, periodTime: 1, periodTimeUnit: 'MINUTES' } };

for (const dialect of await testDialects()) {
  describe(`${dialect}: plan calls`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let reviewer: SignedInUser;
    let apiId: string;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      u = await apiUsers(t);
      reviewer = await signInNewUser(t.app, t.db);
      apiId = (await createApiAs(t, u.publisher.session)).id;
      await grantRoleOn(t.db, reviewer.user.id, 'API', apiId, 'REVIEWER');
    });
    afterAll(() => t?.close());

    const plansUrl = (id = apiId) => `/apis/${id}/plans`;
    const createPlan = async (payload: Record<string, unknown> = {}) => {
      const res = await call(t.app, u.publisher.session, {
        method: 'POST',
        url: plansUrl(),
        payload: { name: 'Gold plan', description: 'For partners', security: 'API_KEY', ...payload },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; status: string; order: number }>();
    };
    const action = (planId: string, name: string, session = u.publisher.session) =>
      call(t.app, session, { method: 'POST', url: `${plansUrl()}/${planId}/${name}` });

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

    describe('GET apis/{id}/plans', () => {
      let ids: Record<string, string>;
      beforeAll(async () => {
        const api = (await createApiAs(t, u.publisher.session)).id;
        const make = async (name: string, actions: string[], extra: Record<string, unknown> = {}) => {
          const res = await call(t.app, u.publisher.session, {
            method: 'POST',
            url: plansUrl(api),
            payload: { name, description: name, security: 'API_KEY', ...extra },
          });
          const id = res.json<{ id: string }>().id;
          for (const a of actions)
            await call(t.app, u.publisher.session, { method: 'POST', url: `${plansUrl(api)}/${id}/${a}` });
          return id;
        };
        const group = await createGroup(t.db);
        ids = {
          api,
          staging: await make('Staging', []),
          published: await make('Published', ['_publish'], {
            security: 'JWT',
            securityDefinition: {
              signature: 'HMAC_HS256',
              resolverParameter: 'a-very-secret-hmac-key-of-32-chars',
            },
          }),
          deprecated: await make('Deprecated', ['_publish', '_depreciate']),
          closed: await make('Closed', ['_close']),
          hidden: await make('Hidden', ['_publish'], { excluded_groups: [group.id] }),
          group: group.id,
        };
      });
      const names = (res: { json(): unknown }) => (res.json() as { name: string }[]).map((p) => p.name);

      it('lists the plans in their order, filtered by a status list and by security', async () => {
        const all = await call(t.app, u.publisher.session, { method: 'GET', url: plansUrl(ids.api) });
        expect(names(all)).toEqual(['Staging', 'Published', 'Deprecated', 'Closed', 'Hidden']);
        const active = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `${plansUrl(ids.api)}?status=published,deprecated`,
        });
        expect(names(active)).toEqual(['Published', 'Deprecated', 'Hidden']);
        const jwt = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `${plansUrl(ids.api)}?security=jwt`,
        });
        expect(names(jwt)).toEqual(['Published']);
        expect(jwt.json()[0].securityDefinition).toContain('HMAC_HS256');
      });

      it('shows a visitor of a public API its published plans not excluded for them, without their security configuration', async () => {
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${ids.api}`,
          payload: { visibility: 'PUBLIC' },
        });
        const anonymous = await call(t.app, undefined, { method: 'GET', url: plansUrl(ids.api) });
        expect(anonymous.statusCode).toBe(200);
        expect(names(anonymous)).toEqual(['Published', 'Hidden']);
        expect(anonymous.json().every((p: Record<string, unknown>) => !('securityDefinition' in p))).toBe(
          true,
        );
        const grouped = await signInNewUser(t.app, t.db);
        await grantRoleThroughGroup(t.db, grouped.user.id, ids.group!, 'API', 'USER');
        expect(names(await call(t.app, grouped.session, { method: 'GET', url: plansUrl(ids.api) }))).toEqual([
          'Published',
        ]);
        expect(
          await call(t.app, undefined, { method: 'GET', url: `${plansUrl(ids.api)}?status=staging` }),
        ).toMatchObject({
          statusCode: 200,
        });
      });

      it('shows portal readers what the portal shows of a plan, never its configuration; api-plan-r readers get it whole', async () => {
        const api = (await createApiAs(t, u.publisher.session)).id;
        await call(t.app, u.publisher.session, {
          method: 'PUT',
          url: `/apis/${api}`,
          payload: { visibility: 'PUBLIC' },
        });
        const group = await createGroup(t.db);
        const created = await call(t.app, u.publisher.session, {
          method: 'POST',
          url: plansUrl(api),
          payload: {
            name: 'Partner',
            description: 'For partners',
            security: 'API_KEY',
            characteristics: ['Fast'],
            excluded_groups: [group.id],
            comment_required: true,
            comment_message: 'Tell us why',
            paths: {
              '/': [
                {
                  methods: ['GET'],
                  enabled: true,
                  'rate-limit': RATE_LIMIT,
                  description: 'backend-password=hunter2-secret',
                },
              ],
            },
          },
        });
        expect(created.statusCode, created.body).toBe(201);
        const planId = created.json<{ id: string }>().id;
        await call(t.app, u.publisher.session, {
          method: 'POST',
          url: `${plansUrl(api)}/${planId}/_publish`,
        });

        const outsider = await call(t.app, u.outsider.session, { method: 'GET', url: plansUrl(api) });
        for (const res of [await call(t.app, undefined, { method: 'GET', url: plansUrl(api) }), outsider]) {
          expect(res.statusCode).toBe(200);
          expect(res.body).not.toContain('hunter2');
          const [plan] = res.json<Record<string, unknown>[]>();
          expect(Object.keys(plan!).sort()).toEqual(
            [
              'api',
              'characteristics',
              'closed_at',
              'comment_message',
              'comment_required',
              'created_at',
              'description',
              'id',
              'name',
              'order',
              'published_at',
              'security',
              'status',
              'tags',
              'type',
              'updated_at',
              'validation',
            ].sort(),
          );
          expect(plan).toMatchObject({
            id: planId,
            name: 'Partner',
            security: 'API_KEY',
            status: 'PUBLISHED',
            characteristics: ['Fast'],
            comment_required: true,
            comment_message: 'Tell us why',
          });
        }
        const reviewerOfApi = await signInNewUser(t.app, t.db);
        await grantRoleOn(t.db, reviewerOfApi.user.id, 'API', api, 'REVIEWER');
        const whole = await call(t.app, reviewerOfApi.session, { method: 'GET', url: plansUrl(api) });
        expect(whole.body).toContain('hunter2');
        expect(whole.json()[0]).toMatchObject({ excluded_groups: [group.id], securityDefinition: null });
      });

      it('refuses an unknown status naming the field', async () => {
        const res = await call(t.app, u.publisher.session, {
          method: 'GET',
          url: `${plansUrl()}?status=published,gone`,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(invalidFieldBody('status', /unknown status \[gone\]/));
      });

      it('refuses the plans of a private API to an outsider (403) and to anonymous callers (401)', async () => {
        expect((await call(t.app, u.outsider.session, { method: 'GET', url: plansUrl() })).json()).toEqual(
          errorBody(403, 'You do not have the permission api-plan-r'),
        );
        expect((await call(t.app, undefined, { method: 'GET', url: plansUrl() })).statusCode).toBe(401);
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
