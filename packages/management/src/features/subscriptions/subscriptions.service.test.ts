import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanRow, UserRow } from '@portico/storage';
import { findNotificationsOfUser, searchAudits } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../../test-support/index.js';
import { createUser, grantRoleThroughGroup, createGroup } from '../../test-support/index.js';
import type { SubscriptionServices } from './subscriptions.wiring.js';
import {
  ALREADY_SUBSCRIBED,
  CLIENT_ID_REQUIRED,
  KEYLESS_NOT_SUBSCRIBABLE,
  ONE_OAUTH_SUBSCRIPTION,
  PLAN_NOT_SUBSCRIBABLE,
} from './subscriptions.errors.js';
import { busRecorder, newApi, planInput, publishedPlan, refusal } from './test-support/index.js';
import type { RulesWorld } from './test-support/subscription-rules.js';
import { DAY, JWT_DEFINITION, rulesHelpers, startRulesWorld } from './test-support/subscription-rules.js';

for (const dialect of await testDialects()) {
  describe(`${dialect}: subscription rules`, () => {
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
    const { application, subscribe, subscriptionIn, keysOf } = rulesHelpers(world);

    describe('subscribe', () => {
      it('creates a pending subscription to a plan with manual validation, and tells the validators', async () => {
        const sub = await s.subscriptions.subscribe(consumer, {
          apiId,
          planId: plan.id,
          applicationId: (await application({ client_id: `cid-${dialect}-1` })).id,
          request: 'Please let me in',
        });
        expect(sub).toMatchObject({
          status: 'PENDING',
          request: 'Please let me in',
          subscribed_by: consumer.id,
          client_id: `cid-${dialect}-1`,
          api_id: apiId,
        });
        expect(await keysOf(sub.id)).toEqual([]);
        const notified = await findNotificationsOfUser(t.db, validator.id, { offset: 0, limit: 50 });
        expect(notified.rows.map((n) => n.title)).toContain('New subscription to validate');
        const publisherNotified = await findNotificationsOfUser(t.db, publisher.id, { offset: 0, limit: 50 });
        expect(publisherNotified.rows.some((n) => n.message.includes('Please let me in'))).toBe(true);
      });

      it('tells the members who validate through a group of the API too', async () => {
        const groupMember = await createUser(t.db);
        const group = await createGroup(t.db);
        const api = await newApi(s, publisher, 'Grouped');
        await s.apis.update(publisher, api.id, { groups: [group.id] });
        await grantRoleThroughGroup(t.db, groupMember.id, group.id, 'API', 'OWNER');
        const p = await publishedPlan(s, publisher, api.id);
        await subscribe(p);
        const notified = await findNotificationsOfUser(t.db, groupMember.id, { offset: 0, limit: 10 });
        expect(notified.rows.map((n) => n.title)).toEqual(['New subscription to validate']);
      });

      it('accepts at once with automatic validation and issues the key', async () => {
        const auto = await publishedPlan(s, publisher, apiId, { validation: 'AUTO' });
        const sub = await subscribe(auto);
        expect(sub).toMatchObject({ status: 'ACCEPTED', processed_by: null });
        expect(sub.processed_at).toBeGreaterThan(0);
        expect(sub.starting_at).toBeGreaterThan(0);
        const keys = await keysOf(sub.id);
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatchObject({ revoked: 0, paused: 0, plan_id: auto.id, api_id: apiId });
      });

      it('refuses a key-less plan and plans that are not published', async () => {
        const keyless = await s.plans.create(publisher, apiId, planInput({ security: 'KEY_LESS' }));
        expect(await refusal(subscribe(keyless))).toMatchObject({
          status: 400,
          message: KEYLESS_NOT_SUBSCRIBABLE,
          field: 'plan',
        });
        const staging = await s.plans.create(publisher, apiId, planInput());
        expect(await refusal(subscribe(staging))).toMatchObject({ message: PLAN_NOT_SUBSCRIBABLE });
        const deprecated = await publishedPlan(s, publisher, apiId);
        await s.plans.deprecate(publisher, apiId, deprecated.id);
        expect(await refusal(subscribe(deprecated))).toMatchObject({ message: PLAN_NOT_SUBSCRIBABLE });
        const closed = await publishedPlan(s, publisher, apiId);
        await s.plans.close(publisher, apiId, closed.id);
        expect(await refusal(subscribe(closed))).toMatchObject({ message: PLAN_NOT_SUBSCRIBABLE });
      });

      it('refuses a plan of another API than the one of the call', async () => {
        const other = await newApi(s, publisher, 'Elsewhere');
        const app = await application();
        expect(
          await refusal(
            s.subscriptions.subscribe(consumer, { apiId: other.id, planId: plan.id, applicationId: app.id }),
          ),
        ).toMatchObject({ status: 400, field: 'plan' });
      });

      it('allows one pending, accepted or paused subscription per application and plan', async () => {
        for (const status of ['PENDING', 'ACCEPTED', 'PAUSED'] as const) {
          const sub = await subscriptionIn(status);
          expect(
            await refusal(
              s.subscriptions.subscribe(consumer, { planId: plan.id, applicationId: sub.application_id }),
            ),
          ).toMatchObject({ status: 400, message: ALREADY_SUBSCRIBED });
        }
        for (const status of ['REJECTED', 'CLOSED'] as const) {
          const sub = await subscriptionIn(status);
          const again = await s.subscriptions.subscribe(consumer, {
            planId: plan.id,
            applicationId: sub.application_id,
          });
          expect(again.status).toBe('PENDING');
        }
      });

      it('needs a message when the plan requires one', async () => {
        const p = await publishedPlan(s, publisher, apiId, {
          comment_required: true,
          comment_message: 'Who are you?',
        });
        const app = await application();
        expect(
          await refusal(
            s.subscriptions.subscribe(consumer, { planId: p.id, applicationId: app.id, request: '  ' }),
          ),
        ).toMatchObject({
          status: 400,
          field: 'request',
          message: expect.stringContaining('Who are you?'),
        });
        expect(
          (await s.subscriptions.subscribe(consumer, { planId: p.id, applicationId: app.id, request: 'Me' }))
            .request,
        ).toBe('Me');
      });

      it('needs a client id for OAuth2 and JWT plans, and one such subscription per API and application', async () => {
        const jwt = await publishedPlan(s, publisher, apiId, {
          security: 'JWT',
          securityDefinition: JWT_DEFINITION,
        });
        const jwt2 = await publishedPlan(s, publisher, apiId, {
          security: 'JWT',
          securityDefinition: JWT_DEFINITION,
        });
        expect(await refusal(subscribe(jwt))).toMatchObject({ status: 400, message: CLIENT_ID_REQUIRED });
        const app = await application({ client_id: `jwt-client-${dialect}` });
        await s.subscriptions.subscribe(consumer, { planId: jwt.id, applicationId: app.id });
        expect(
          await refusal(s.subscriptions.subscribe(consumer, { planId: jwt2.id, applicationId: app.id })),
        ).toMatchObject({
          message: ONE_OAUTH_SUBSCRIPTION,
        });
        // An API-key plan of the same API is still open to it.
        expect(
          (await s.subscriptions.subscribe(consumer, { planId: plan.id, applicationId: app.id })).status,
        ).toBe('PENDING');
      });

      it('answers 404 for an archived application', async () => {
        const app = await application({ status: 'ARCHIVED' });
        expect(
          (await refusal(s.subscriptions.subscribe(consumer, { planId: plan.id, applicationId: app.id })))
            .status,
        ).toBe(404);
      });
    });

    it('moves updated_at on every change and tells the gateways after the commit', async () => {
      const bus = busRecorder(t);
      try {
        const sub = await subscribe();
        const stamps = [sub.updated_at];
        for (const step of [
          () => s.subscriptions.accept(validator, apiId, sub.id, {}),
          () => s.subscriptions.pause(validator, apiId, sub.id),
          () => s.subscriptions.resume(validator, apiId, sub.id),
          () => s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: t.clock.peek() + DAY }),
          () => s.subscriptions.close(validator, apiId, sub.id),
        ]) {
          stamps.push((await step()).updated_at);
        }
        expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
        expect(new Set(stamps).size).toBe(stamps.length);
        expect(bus.messages.filter((m) => m.kind === 'subscription' && m.id === sub.id)).toHaveLength(6);
        const key = (await keysOf(sub.id))[0]!;
        expect(
          bus.messages.filter((m) => m.kind === 'apikey' && m.id === key.key).length,
        ).toBeGreaterThanOrEqual(5);
        expect(bus.messages.every((m) => m.apiId === apiId)).toBe(true);
        // A refused change announces nothing.
        bus.clear();
        await refusal(s.subscriptions.pause(validator, apiId, sub.id));
        expect(bus.messages).toEqual([]);
      } finally {
        bus.stop();
      }
    });

    it('audits each change in the API trail and in the application trail', async () => {
      const sub = await subscribe();
      await s.subscriptions.accept(validator, apiId, sub.id, {});
      await s.subscriptions.pause(validator, apiId, sub.id);
      await s.subscriptions.resume(validator, apiId, sub.id);
      await s.subscriptions.transfer(validator, apiId, sub.id, (await publishedPlan(s, publisher, apiId)).id);
      await s.subscriptions.changeDates(validator, apiId, sub.id, { ending_at: t.clock.peek() + DAY });
      await s.subscriptions.close(validator, apiId, sub.id);
      const expected = [
        'SUBSCRIPTION_CREATED',
        'SUBSCRIPTION_ACCEPTED',
        'SUBSCRIPTION_PAUSED',
        'SUBSCRIPTION_RESUMED',
        'SUBSCRIPTION_TRANSFERRED',
        'SUBSCRIPTION_UPDATED',
        'SUBSCRIPTION_CLOSED',
      ].sort();
      for (const [type, id] of [
        ['API', apiId],
        ['APPLICATION', sub.application_id],
      ] as const) {
        const { rows } = await searchAudits(t.db, {
          references: [{ type, ids: [id] }],
          offset: 0,
          limit: 500,
        });
        const events = rows
          .filter((r) => JSON.parse(r.properties).SUBSCRIPTION === sub.id)
          .map((r) => r.event);
        expect(events.sort()).toEqual(expected);
      }
    });
  });
}
