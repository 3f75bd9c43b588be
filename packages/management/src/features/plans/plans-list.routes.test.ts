import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { SignedInUser, TestApp } from '../../test-support/index.js';
import {
  call,
  createGroup,
  errorBody,
  invalidFieldBody,
  grantRoleOn,
  grantRoleThroughGroup,
  signInNewUser,
} from '../../test-support/index.js';
import type { ApiUsers } from '../apis/test-support/index.js';
import { createApiAs } from '../apis/test-support/index.js';
import type { PlanCallsWorld } from './test-support/plan-calls.js';
import { RATE_LIMIT, planCallsHelpers, startPlanCallsWorld } from './test-support/plan-calls.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: plan calls: lists`, () => {
    let t: TestApp;
    let u: ApiUsers;
    let reviewer: SignedInUser;
    let apiId: string;

    beforeAll(async () => {
      ({ t, u, reviewer, apiId } = await startPlanCallsWorld(dialect));
    });
    afterAll(() => t?.close());

    const { plansUrl } = planCallsHelpers((): PlanCallsWorld => ({
      t,
      u,
      reviewer,
      apiId,
    }));

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
  });
}
