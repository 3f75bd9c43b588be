import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '@portico/storage';
import { findEventsOfApi, findPlanById, searchAudits } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import { PlanUpdate } from '@portico/model';
import type { TestApp } from '../../test-support/index.js';
import { createGroup, createSubscription, createTag } from '../../test-support/index.js';
import { ApiLifecycleService } from '../apis/api-lifecycle.service.js';
import type { SubscriptionServices } from '../subscriptions/subscriptions.wiring.js';
import {
  newApi,
  ownedApplication,
  planInput,
  publishedPlan,
  refusal,
} from '../subscriptions/test-support/index.js';
import { PLAN_CLOSED, PLAN_HAS_SUBSCRIPTIONS, PLAN_SECURITY_FIXED } from './plans.errors.js';
import type { PlanWorld } from './test-support/plan-rules.js';
import { JWT_DEFINITION, planInStatus, startPlanWorld } from './test-support/plan-rules.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: plan rules`, () => {
    let t: TestApp;
    let s: SubscriptionServices;
    let owner: UserRow;
    let apiId: string;
    let lifecycle: ApiLifecycleService;

    beforeAll(async () => {
      ({ t, s, owner, apiId } = await startPlanWorld(dialect));
      lifecycle = new ApiLifecycleService({
        db: t.ctx.db,
        bus: t.ctx.bus,
        audit: t.services.audit,
        apis: s.apis,
        now: t.ctx.now,
      });
    });
    afterAll(() => t?.close());

    const planIn = planInStatus((): PlanWorld => ({ t, s, owner, apiId }));

    describe('creation', () => {
      it('creates a STAGING plan last in the order, with its fields', async () => {
        const first = await s.plans.create(owner, apiId, planInput({ name: 'Bronze' }));
        const second = await s.plans.create(
          owner,
          apiId,
          planInput({
            name: 'Silver',
            security: 'api_key',
            validation: 'auto',
            characteristics: ['fast', 'cheap'],
            comment_required: true,
            comment_message: 'Tell us why',
          }),
        );
        expect(second).toMatchObject({
          status: 'STAGING',
          security: 'API_KEY',
          validation: 'AUTO',
          characteristics: '["fast","cheap"]',
          comment_required: 1,
          comment_message: 'Tell us why',
          published_at: null,
        });
        expect(second.order).toBeGreaterThan(first.order);
      });

      it('creates a PUBLISHED plan when asked (the wizard creating and deploying)', async () => {
        const plan = await s.plans.create(owner, apiId, planInput({ status: 'published' }));
        expect(plan.status).toBe('PUBLISHED');
        expect(plan.published_at).not.toBeNull();
      });

      it('forces automatic validation on a key-less plan', async () => {
        const plan = await s.plans.create(
          owner,
          apiId,
          planInput({ security: 'keyless', validation: 'MANUAL' }),
        );
        expect(plan).toMatchObject({ security: 'KEY_LESS', validation: 'AUTO' });
      });

      it('checks the security configuration against its type', async () => {
        expect(await refusal(s.plans.create(owner, apiId, planInput({ security: 'JWT' })))).toMatchObject({
          status: 400,
          field: 'securityDefinition',
        });
        expect(
          await refusal(
            s.plans.create(
              owner,
              apiId,
              planInput({ security: 'JWT', securityDefinition: '{"signature":"RSA_RS256"}' }),
            ),
          ),
        ).toMatchObject({ status: 400, field: 'securityDefinition.resolverParameter' });
        expect(
          await refusal(
            s.plans.create(owner, apiId, planInput({ security: 'JWT', securityDefinition: '{not json' })),
          ),
        ).toMatchObject({ status: 400, field: 'securityDefinition' });
        const jwt = await s.plans.create(
          owner,
          apiId,
          planInput({ security: 'JWT', securityDefinition: JWT_DEFINITION }),
        );
        expect(JSON.parse(jwt.security_definition!)).toMatchObject({ signature: 'HMAC_HS256' });
      });

      it('validates the policy steps and restrictions with the gateway schemas, naming the field', async () => {
        const rateLimit = (limit: unknown) => ({
          paths: {
            '/': [
              {
                methods: ['GET'],
                enabled: true,
                'rate-limit': { rate: { limit, periodTime: 1, periodTimeUnit: 'MINUTES' } },
              },
            ],
          },
        });
        expect(await refusal(s.plans.create(owner, apiId, planInput(rateLimit('ten'))))).toMatchObject({
          status: 400,
          field: 'paths./.0.rate-limit.rate.limit',
        });
        expect(
          await refusal(
            s.plans.create(owner, apiId, planInput({ paths: { '/': [{ 'no-such-policy': {} }] } })),
          ),
        ).toMatchObject({
          status: 400,
          field: 'paths./.0',
          message: expect.stringContaining('Unknown policy'),
        });
        expect(
          await refusal(
            s.plans.create(
              owner,
              apiId,
              planInput({
                paths: { '/': [{ 'resource-filtering': { whitelist: [{ pattern: '', methods: [] }] } }] },
              }),
            ),
          ),
        ).toMatchObject({ status: 400, field: 'paths./.0.resource-filtering.whitelist.0.pattern' });
        const plan = await s.plans.create(owner, apiId, planInput(rateLimit(3)));
        expect(JSON.parse(plan.paths)['/'][0]['rate-limit'].rate.limit).toBe(3);
      });

      it('refuses excluded groups and sharding tags that do not exist', async () => {
        expect(
          await refusal(s.plans.create(owner, apiId, planInput({ excluded_groups: ['nope'] }))),
        ).toMatchObject({
          status: 400,
          field: 'excluded_groups',
        });
        expect(await refusal(s.plans.create(owner, apiId, planInput({ tags: ['nope'] })))).toMatchObject({
          status: 400,
          field: 'tags',
        });
        const group = await createGroup(t.db);
        await createTag(t.db, `eu-${dialect}`);
        const plan = await s.plans.create(
          owner,
          apiId,
          planInput({ excluded_groups: [group.id], tags: [`eu-${dialect}`] }),
        );
        expect(JSON.parse(plan.tags)).toEqual([`eu-${dialect}`]);
      });

      it('answers 404 for an unknown API', async () => {
        expect((await refusal(s.plans.create(owner, 'no-such-api', planInput()))).status).toBe(404);
      });
    });

    describe('update', () => {
      it('saves the fields and keeps the security type; a reorder saves the order', async () => {
        const plan = await planIn('PUBLISHED');
        const updated = await s.plans.update(
          owner,
          apiId,
          plan.id,
          PlanUpdate.parse({ name: 'Renamed', security: 'api_key', characteristics: ['x'], order: 42 }),
        );
        expect(updated).toMatchObject({
          name: 'Renamed',
          security: 'API_KEY',
          characteristics: '["x"]',
          order: 42,
          status: 'PUBLISHED',
        });
        expect(updated.updated_at).toBeGreaterThan(plan.updated_at);
      });

      it('refuses to change the security type', async () => {
        const plan = await planIn('STAGING');
        expect(
          await refusal(s.plans.update(owner, apiId, plan.id, PlanUpdate.parse({ security: 'KEY_LESS' }))),
        ).toEqual({
          status: 400,
          message: PLAN_SECURITY_FIXED,
          field: 'security',
        });
      });

      it('keeps a key-less plan on automatic validation', async () => {
        const plan = await s.plans.create(owner, apiId, planInput({ security: 'KEY_LESS' }));
        expect(
          (await s.plans.update(owner, apiId, plan.id, PlanUpdate.parse({ validation: 'MANUAL' })))
            .validation,
        ).toBe('AUTO');
      });

      it('refuses to change a closed plan', async () => {
        const plan = await planIn('CLOSED');
        expect(
          await refusal(s.plans.update(owner, apiId, plan.id, PlanUpdate.parse({ name: 'Again' }))),
        ).toMatchObject({
          message: PLAN_CLOSED,
        });
      });

      it('answers 404 for a plan of another API', async () => {
        const other = (await newApi(s, owner, 'Other')).id;
        const plan = await s.plans.create(owner, other, planInput());
        expect(
          (await refusal(s.plans.update(owner, apiId, plan.id, PlanUpdate.parse({ name: 'x' })))).status,
        ).toBe(404);
      });
    });

    describe('delete', () => {
      for (const status of ['PENDING', 'ACCEPTED', 'PAUSED'] as const) {
        it(`refuses to delete a plan with a ${status.toLowerCase()} subscription`, async () => {
          const plan = await planIn('PUBLISHED');
          await createSubscription(t.db, plan, await ownedApplication(t, owner), { status });
          expect(await refusal(s.plans.delete(owner, apiId, plan.id))).toMatchObject({
            message: PLAN_HAS_SUBSCRIPTIONS,
          });
          expect(await findPlanById(t.db, plan.id)).toBeDefined();
        });
      }

      it('deletes a plan whose subscriptions are all closed or rejected', async () => {
        const plan = await planIn('CLOSED');
        await createSubscription(t.db, plan, await ownedApplication(t, owner), { status: 'CLOSED' });
        await createSubscription(t.db, plan, await ownedApplication(t, owner), { status: 'REJECTED' });
        await s.plans.delete(owner, apiId, plan.id);
        expect(await findPlanById(t.db, plan.id)).toBeUndefined();
      });
    });

    it('makes the API out of sync until it is deployed', async () => {
      const api = await newApi(s, owner, 'Synced');
      await lifecycle.deploy(owner, api.id);
      expect(await lifecycle.isSynchronized(api.id)).toBe(true);
      const plan = await s.plans.create(owner, api.id, planInput());
      expect(await lifecycle.isSynchronized(api.id)).toBe(true); // a staging plan is not deployed
      await s.plans.publish(owner, api.id, plan.id);
      expect(await lifecycle.isSynchronized(api.id)).toBe(false);
      await lifecycle.deploy(owner, api.id);
      expect(await lifecycle.isSynchronized(api.id)).toBe(true);
      await s.plans.update(
        owner,
        api.id,
        plan.id,
        PlanUpdate.parse({ paths: { '/': [{ latency: { time: 5 } }] } }),
      );
      expect(await lifecycle.isSynchronized(api.id)).toBe(false);
    });

    it('deploys the published plans with their sharding tags', async () => {
      const api = await newApi(s, owner, 'Tagged');
      await createTag(t.db, `asia-${dialect}`);
      const plan = await publishedPlan(s, owner, api.id, { tags: [`asia-${dialect}`] });
      await lifecycle.deploy(owner, api.id);
      const [event] = await findEventsOfApi(t.db, api.id, ['PUBLISH_API']);
      const deployed = JSON.parse(event!.payload!) as { plans: { id: string; tags: string[] }[] };
      expect(deployed.plans).toEqual([expect.objectContaining({ id: plan.id, tags: [`asia-${dialect}`] })]);
    });

    it('audits every change of a plan in the API trail', async () => {
      const api = await newApi(s, owner, 'Audited');
      const plan = await s.plans.create(owner, api.id, planInput());
      await s.plans.update(owner, api.id, plan.id, PlanUpdate.parse({ name: 'Audited plan' }));
      await s.plans.publish(owner, api.id, plan.id);
      await s.plans.deprecate(owner, api.id, plan.id);
      await s.plans.close(owner, api.id, plan.id);
      await s.plans.delete(owner, api.id, plan.id);
      const { rows } = await searchAudits(t.db, {
        references: [{ type: 'API', ids: [api.id] }],
        offset: 0,
        limit: 50,
      });
      const events = rows.filter((r) => JSON.parse(r.properties).PLAN === plan.id).map((r) => r.event);
      expect(events.sort()).toEqual(
        [
          'PLAN_CREATED',
          'PLAN_UPDATED',
          'PLAN_PUBLISHED',
          'PLAN_DEPRECATED',
          'PLAN_CLOSED',
          'PLAN_DELETED',
        ].sort(),
      );
      expect(rows.every((r) => r.user_id === owner.id)).toBe(true);
    });
  });
}
